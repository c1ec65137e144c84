package collide

import (
	"context"
	"fmt"
	"time"

	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// DefaultTimeout is a call's deadline when neither its context nor
// Options.Timeout sets one.
const DefaultTimeout = 10 * time.Second

// Options are a Client's settings; the zero value is a plaintext client of
// one address for both services, without a token.
type Options struct {
	// AdminAddress is the server's admin listener (host:port), where level
	// writes go; "": the query address, for a server whose --admin_listen
	// equals --listen.
	AdminAddress string
	// TLS applies to both addresses; nil: plaintext.
	TLS *TLS
	// AdminToken, or the first line of AdminTokenFile, is sent as
	// "authorization: Bearer <token>" on admin calls.
	AdminToken, AdminTokenFile string
	// Timeout is every unary call's deadline when its context has none
	// (0: DefaultTimeout).
	Timeout time.Duration
	// DialOptions are added to DialOptions(TLS), e.g. keepalive settings.
	DialOptions []grpc.DialOption
}

// Client calls a collide server: level writes on the admin listener,
// queries and level reads on the query address. Safe for concurrent use.
type Client struct {
	// The generated stubs, for what the helpers leave out.
	Collisions collidev1.CollisionServiceClient
	Levels     collidev1.LevelServiceClient // reads, on the query address
	Admin      collidev1.LevelServiceClient // writes, on the admin address

	timeout   time.Duration
	token     string
	conn      *grpc.ClientConn
	adminConn *grpc.ClientConn
}

// Dial makes a Client of the server whose query port is address
// (host:port, or any gRPC target such as dns:///name:port). It does not
// wait for the server: calls wait for it up to their deadline.
func Dial(address string, options Options) (*Client, error) {
	dialOptions, err := DialOptions(options.TLS)
	if err != nil {
		return nil, err
	}
	dialOptions = append(dialOptions, options.DialOptions...)
	c := &Client{timeout: options.Timeout, token: options.AdminToken}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.token == "" && options.AdminTokenFile != "" {
		if c.token, err = ReadToken(options.AdminTokenFile); err != nil {
			return nil, err
		}
	}
	if c.conn, err = grpc.Dial(address, dialOptions...); err != nil {
		return nil, fmt.Errorf("%s: %w", address, err)
	}
	c.adminConn = c.conn
	if options.AdminAddress != "" && options.AdminAddress != address {
		if c.adminConn, err = grpc.Dial(options.AdminAddress,
			dialOptions...); err != nil {
			c.conn.Close()
			return nil, fmt.Errorf("%s: %w", options.AdminAddress, err)
		}
	}
	c.Collisions = collidev1.NewCollisionServiceClient(c.conn)
	c.Levels = collidev1.NewLevelServiceClient(c.conn)
	c.Admin = collidev1.NewLevelServiceClient(c.adminConn)
	return c, nil
}

// Close closes the connections; calls in progress fail with CANCELLED.
func (c *Client) Close() error {
	if c.adminConn != c.conn {
		c.adminConn.Close()
	}
	return c.conn.Close()
}

// withDeadline is ctx with the Client's timeout unless it has a deadline.
func (c *Client) withDeadline(ctx context.Context) (context.Context,
	context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, c.timeout)
}

// AdminContext is ctx carrying the admin token, for calls on c.Admin.
func (c *Client) AdminContext(ctx context.Context) context.Context {
	if c.token == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, "authorization",
		"Bearer "+c.token)
}

// PutLevel puts content as levels/{content.Id}, replacing what was there.
func (c *Client) PutLevel(ctx context.Context,
	content *collidev1.Level) (*collidev1.LevelSummary, error) {
	ctx, cancel := c.withDeadline(c.AdminContext(ctx))
	defer cancel()
	response, err := c.Admin.PutLevel(ctx, &collidev1.PutLevelRequest{
		Level: LevelName(content.GetId()), Content: content})
	return response.GetSummary(), err
}

// PatchLevel adds or replaces upserts and removes removeIDs, atomically.
func (c *Client) PatchLevel(ctx context.Context, level string,
	upserts []*collidev1.Shape,
	removeIDs []uint64) (*collidev1.LevelSummary, error) {
	ctx, cancel := c.withDeadline(c.AdminContext(ctx))
	defer cancel()
	response, err := c.Admin.PatchLevel(ctx, &collidev1.PatchLevelRequest{
		Level: LevelName(level), Upserts: upserts, RemoveIds: removeIDs})
	return response.GetSummary(), err
}

// DeleteLevel deletes the level and returns the version it had.
func (c *Client) DeleteLevel(ctx context.Context, level string) (int64, error) {
	ctx, cancel := c.withDeadline(c.AdminContext(ctx))
	defer cancel()
	response, err := c.Admin.DeleteLevel(ctx,
		&collidev1.DeleteLevelRequest{Level: LevelName(level)})
	return response.GetDeletedVersion(), err
}

// ListLevels is the summary of every level the server holds.
func (c *Client) ListLevels(ctx context.Context) ([]*collidev1.LevelSummary,
	error) {
	ctx, cancel := c.withDeadline(ctx)
	defer cancel()
	response, err := c.Levels.ListLevels(ctx, &collidev1.ListLevelsRequest{})
	return response.GetLevels(), err
}

// DescribeLevel is one level's summary.
func (c *Client) DescribeLevel(ctx context.Context,
	level string) (*collidev1.LevelSummary, error) {
	ctx, cancel := c.withDeadline(ctx)
	defer cancel()
	response, err := c.Levels.DescribeLevel(ctx,
		&collidev1.DescribeLevelRequest{Level: LevelName(level)})
	return response.GetSummary(), err
}

// GetLevel is one level's content.
func (c *Client) GetLevel(ctx context.Context,
	level string) (*collidev1.Level, error) {
	ctx, cancel := c.withDeadline(ctx)
	defer cancel()
	response, err := c.Levels.GetLevel(ctx,
		&collidev1.GetLevelRequest{Level: LevelName(level)})
	return response.GetContent(), err
}

// Run answers queries as one batch in one unary call (resent by
// ServiceConfig on a drain). The results come in the order of queries; a
// query the server refused comes back in its own result (see Check) while
// the rest are answered. Queries without request ids get 1..n.
func (c *Client) Run(ctx context.Context, level string,
	queries ...*collidev1.Query) ([]*collidev1.QueryResult, error) {
	ctx, cancel := c.withDeadline(ctx)
	defer cancel()
	response, err := c.Collisions.RunQueries(ctx, &collidev1.RunQueriesRequest{
		Level: LevelName(level), Queries: numbered(queries)})
	return response.GetResults(), err
}

// StreamOptions are a QueryStream's settings.
type StreamOptions struct {
	// Window is the most batches in flight (0: 4); Submit waits for room.
	Window int
	// Timeout is each StreamQueries call's deadline (0: none).
	Timeout time.Duration
}

// Stream opens a QueryStream on level: one per game tick loop, not per
// tick. Close it when done.
func (c *Client) Stream(level string, options StreamOptions) (*QueryStream,
	error) {
	return NewQueryStream(c.Collisions, LevelName(level), options)
}
