// collide-load's run once its command line is parsed (load_tool_options.h),
// in two steps: Connect opens the connections and asks the server for the
// level's bounds; Run runs the load test (load_runner.h) and reports it.
#ifndef COLLIDE_CLIENT_LOAD_LOAD_TOOL_H_
#define COLLIDE_CLIENT_LOAD_LOAD_TOOL_H_

#include <atomic>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "client/lib/collide_client.h"
#include "client/load/load_tool_options.h"
#include "client/load/query_mix.h"
#include "client/load/run_description.h"

namespace collide::client::load {

class LoadTool {
 public:
  // Opens options.connections connections and reads the level's bounds,
  // which is also the check that the server is there. Errors carry the
  // whole line collide-load prints after "collide-load: ": "bad flag --"
  // and the connection flag refused (target, connections, a tls_* file);
  // "cannot describe level ..." with the server's status; "level ...:"
  // when the mix cannot be drawn inside the level's bounds.
  static absl::StatusOr<LoadTool> Connect(LoadToolOptions options);

  // Runs the test and returns collide-load's exit status: 0 when every
  // measured batch and query was answered without error, 2 when the run
  // finished with errors, 1 when the runner refuses the options or a report
  // file cannot be written. Prints the summary on stdout (text, or JSON
  // with options.json), progress lines every
  // options.load.progress_interval and the reason for any failure on
  // stderr, and writes options.csv and options.plot when set. Once
  // `stop_requested` (may be null) turns true, no further batch is sent and
  // the run so far is reported.
  int Run(const std::atomic<bool>* stop_requested);

 private:
  LoadTool(LoadToolOptions options,
           std::vector<std::unique_ptr<CollideClient>> clients, QueryMix mix);

  LoadToolOptions options_;
  std::vector<std::unique_ptr<CollideClient>> clients_;
  QueryMix mix_;
  RunDescription run_;
};

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_LOAD_TOOL_H_
