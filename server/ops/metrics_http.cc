#include "server/ops/metrics_http.h"

#include <arpa/inet.h>
#include <civetweb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "server/ops/log.h"
#include "server/ops/metrics_page.h"
#include "server/ops/server_metrics.h"

namespace collide::server {
namespace {

// civetweb's own complaints (a bad request line, say) as our log lines.
int LogCivetwebMessage(const struct mg_connection* /*connection*/,
                       const char* message) {
  LogAt(LogSeverity::kWarning, {{"component", "metrics_http"}},
        "metrics endpoint: %s", LogValue(message != nullptr ? message : ""));
  return 1;  // handled: civetweb writes nothing itself
}

// GET /metrics; `render` is the server's page renderer.
int HandleMetrics(mg_connection* connection, void* render) {
  const mg_request_info* request = mg_get_request_info(connection);
  const bool head = std::strcmp(request->request_method, "HEAD") == 0;
  if (!head && std::strcmp(request->request_method, "GET") != 0) {
    mg_send_http_error(connection, 405, "only GET and HEAD are served\n");
    return 405;
  }
  // "/metrics/x" reaches this handler too (civetweb matches prefixes).
  if (std::strcmp(request->local_uri, "/metrics") != 0) {
    mg_send_http_error(connection, 404, "not found\n");
    return 404;
  }
  const std::string page =
      (*static_cast<const std::function<std::string()>*>(render))();
  mg_send_http_ok(connection, kMetricsContentType,
                  static_cast<long long>(page.size()));
  if (!head) mg_write(connection, page.data(), page.size());
  return 200;
}

// The user data of a connection that was answered (end_request): any
// other connection closing was dropped unanswered (timed out, or a request
// civetweb could not read).
char answered_marker;

int ClearConnectionMark(const mg_connection* /*connection*/, void** data) {
  *data = nullptr;
  return 0;
}

void MarkAnswered(const mg_connection* connection, int /*status*/) {
  mg_set_user_connection_data(connection, &answered_marker);
}

// Opens and closes one TCP connection to host:port (IPv4), ignoring
// failures.
void Knock(const std::string& host, int port) {
  sockaddr_in address;
  std::memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1) return;
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return;
  connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
  close(fd);
}

}  // namespace

void MetricsHttpServer::NoteDropped() {
  Metrics().metrics_connections_dropped.Add();
  absl::MutexLock lock(&drop_mutex_);
  ++drops_unlogged_;
  const absl::Time now = absl::Now();
  if (now - drop_logged_ < absl::Minutes(1)) return;
  LogAt(LogSeverity::kWarning,
        {{"component", "metrics_http"}, {"connections", drops_unlogged_}},
        "metrics endpoint: closed %d connection(s) without an answer (no "
        "whole request within --metrics_request_timeout=%s, or one it could "
        "not read)",
        drops_unlogged_, absl::FormatDuration(options_.request_timeout));
  drop_logged_ = now;
  drops_unlogged_ = 0;
}

absl::StatusOr<std::unique_ptr<MetricsHttpServer>> MetricsHttpServer::Start(
    const std::string& listen, const MetricsHttpOptions& options,
    std::function<std::string()> render) {
  static std::once_flag library_once;
  std::call_once(library_once, [] { mg_init_library(0); });

  std::unique_ptr<MetricsHttpServer> server(
      new MetricsHttpServer(options, std::move(render)));
  const std::string threads = absl::StrCat(std::max(options.threads, 1));
  const std::string timeout_ms = absl::StrCat(
      std::max<int64_t>(absl::ToInt64Milliseconds(options.request_timeout), 1));
  // Keep-alive off: a scraper reconnects each time anyway, and an idle
  // kept-alive connection would hold a thread between scrapes.
  const char* civetweb_options[] = {"listening_ports",
                                    listen.c_str(),
                                    "num_threads",
                                    threads.c_str(),
                                    "request_timeout_ms",
                                    timeout_ms.c_str(),
                                    "enable_keep_alive",
                                    "no",
                                    nullptr};
  mg_callbacks callbacks;
  std::memset(&callbacks, 0, sizeof callbacks);
  callbacks.log_message = &LogCivetwebMessage;
  callbacks.init_connection = &ClearConnectionMark;
  callbacks.end_request = &MarkAnswered;
  callbacks.connection_close = [](const mg_connection* connection) {
    if (mg_get_user_connection_data(connection) == &answered_marker) return;
    static_cast<MetricsHttpServer*>(
        mg_get_user_data(mg_get_context(connection)))
        ->NoteDropped();
  };
  mg_init_data init{&callbacks, server.get(), civetweb_options};
  char error_text[256] = "";
  mg_error_data error;
  std::memset(&error, 0, sizeof error);
  error.text = error_text;
  error.text_buffer_size = sizeof error_text;
  server->context_ = mg_start2(&init, &error);
  if (server->context_ == nullptr) {
    return absl::UnavailableError(absl::StrCat(
        "metrics_listen \"", listen, "\": cannot serve there: ", error_text));
  }
  // The renderer lives as long as the server, which stops civetweb first.
  mg_set_request_handler(
      server->context_, "/metrics", &HandleMetrics,
      const_cast<std::function<std::string()>*>(&server->render_));
  mg_server_port port;
  if (mg_get_server_ports(server->context_, 1, &port) == 1) {
    server->port_ = port.port;
  }
  const size_t colon = listen.rfind(':');
  if (colon != std::string::npos && colon > 0 &&
      listen.compare(0, colon, "0.0.0.0") != 0) {
    server->wake_host_ = listen.substr(0, colon);
  }
  return server;
}

MetricsHttpServer::~MetricsHttpServer() {
  if (context_ == nullptr) return;
  // civetweb's listener polls its sockets in quanta of up to 2 s, and
  // mg_stop waits for it to see the stop flag: a connection wakes it at
  // once. Knocking until mg_stop returns covers a knock that lands before
  // the flag is set.
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    mg_stop(context_);
    stopped.store(true);
  });
  const auto give_up =
      std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (!stopped.load() && std::chrono::steady_clock::now() < give_up) {
    Knock(wake_host_, port_);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  stopper.join();
}

}  // namespace collide::server
