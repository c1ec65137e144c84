package collide

import (
	"errors"
	"fmt"
	"strings"

	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
)

// levelPrefix starts every level name the API takes.
const levelPrefix = "levels/"

// LevelName is the API's name of a level: "arena" and "levels/arena" both
// name levels/arena.
func LevelName(level string) string {
	if strings.HasPrefix(level, levelPrefix) {
		return level
	}
	return levelPrefix + level
}

// numbered gives queries the request ids 1..n when none has one (a
// query's result carries its request id), in place, and returns them.
func numbered(queries []*collidev1.Query) []*collidev1.Query {
	for _, query := range queries {
		if query.GetRequestId() != 0 {
			return queries
		}
	}
	for i, query := range queries {
		query.RequestId = uint64(i + 1)
	}
	return queries
}

// QueryRefused is the error Check returns for a query the server refused
// while it answered the rest of the batch.
type QueryRefused struct {
	Result *collidev1.QueryResult
}

func (e *QueryRefused) Error() string {
	return fmt.Sprintf("query %d: status %d: %s", e.Result.GetRequestId(),
		e.Result.GetStatus().GetCode(), e.Result.GetStatus().GetMessage())
}

// Check is nil for an answered query, a *QueryRefused for a refused one
// (its status names the field and the value).
func Check(result *collidev1.QueryResult) error {
	if result.GetStatus().GetCode() != 0 {
		return &QueryRefused{Result: result}
	}
	return nil
}

// BatchRefused is the error QueryStream.Query returns when the server
// refused a whole batch: an unknown level, a stale expected_content_hash, a
// full server.
type BatchRefused struct {
	Response *collidev1.StreamQueriesResponse
}

func (e *BatchRefused) Error() string {
	return fmt.Sprintf("batch %d: status %d: %s", e.Response.GetBatchId(),
		e.Response.GetStatus().GetCode(), e.Response.GetStatus().GetMessage())
}

// ErrStreamClosed is returned by QueryStream.Submit after Close, and wraps
// the error a failed stream ended with.
var ErrStreamClosed = errors.New("collide: the query stream is closed")
