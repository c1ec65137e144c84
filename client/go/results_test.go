package collide

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
)

func TestLevelNameTakesIdsAndNames(t *testing.T) {
	for _, given := range []string{"arena", "levels/arena"} {
		if got := LevelName(given); got != "levels/arena" {
			t.Errorf("LevelName(%q) = %q", given, got)
		}
	}
}

func TestNumberedGivesIdsOnlyWhenNoneIsSet(t *testing.T) {
	queries := numbered([]*collidev1.Query{Ray(Vec(0, 0), Vec(1, 0)),
		Ray(Vec(0, 1), Vec(1, 0))})
	if queries[0].RequestId != 1 || queries[1].RequestId != 2 {
		t.Errorf("ids %d, %d", queries[0].RequestId, queries[1].RequestId)
	}
	set := Ray(Vec(0, 0), Vec(1, 0))
	set.RequestId = 40
	queries = numbered([]*collidev1.Query{Ray(Vec(0, 0), Vec(1, 0)), set})
	if queries[0].RequestId != 0 || queries[1].RequestId != 40 {
		t.Errorf("ids %d, %d", queries[0].RequestId, queries[1].RequestId)
	}
}

func TestCheckRefusesAResultWithAStatus(t *testing.T) {
	if err := Check(&collidev1.QueryResult{RequestId: 1}); err != nil {
		t.Errorf("an answered query: %v", err)
	}
	err := Check(&collidev1.QueryResult{RequestId: 2,
		Status: &collidev1.ResultStatus{Code: 3, Message: "radius must be >= 0"}})
	var refused *QueryRefused
	if !errors.As(err, &refused) ||
		err.Error() != "query 2: status 3: radius must be >= 0" {
		t.Errorf("a refused query: %v", err)
	}
}

func TestServiceConfigIsJSONNamingBothServices(t *testing.T) {
	var config struct {
		MethodConfig []struct {
			Name []struct{ Service, Method string }
		}
	}
	if err := json.Unmarshal([]byte(ServiceConfig), &config); err != nil {
		t.Fatal(err)
	}
	if len(config.MethodConfig) != 1 || len(config.MethodConfig[0].Name) != 4 {
		t.Errorf("method config: %+v", config)
	}
}

func TestReadTokenTrimsAndRefusesAnEmptyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "token")
	if err := os.WriteFile(path, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if token, err := ReadToken(path); token != "secret" || err != nil {
		t.Errorf("ReadToken = %q, %v", token, err)
	}
	if err := os.WriteFile(path, []byte(" \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadToken(path); err == nil {
		t.Error("an empty token file was accepted")
	}
}

func TestTLSNeedsTheCertificateAndKeyTogether(t *testing.T) {
	if _, err := (&TLS{CertFile: "client.pem"}).Credentials(); err == nil {
		t.Error("a certificate without a key was accepted")
	}
	if _, err := DialOptions(&TLS{CAFile: "/nonexistent/ca.pem"}); err == nil {
		t.Error("a missing CA file was accepted")
	}
}

func TestStreamRefusesAnEmptyWindow(t *testing.T) {
	if _, err := NewQueryStream(nil, "levels/arena",
		StreamOptions{Window: -1}); err == nil {
		t.Error("window -1 was accepted")
	}
}

// COLLIDE_PROJECT_VERSION is set by the project's test suite to the
// version in its CMakeLists.txt.
func TestVersionIsTheProjectVersion(t *testing.T) {
	want := os.Getenv("COLLIDE_PROJECT_VERSION")
	if want == "" {
		t.Skip("COLLIDE_PROJECT_VERSION is not set")
	}
	if Version != want {
		t.Errorf("Version = %q, the project is %q", Version, want)
	}
}
