#include "server/metrics_http.h"

#include <civetweb.h>

#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "server/log.h"
#include "server/metrics_page.h"

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

}  // namespace

absl::StatusOr<std::unique_ptr<MetricsHttpServer>> MetricsHttpServer::Start(
    const std::string& listen, std::function<std::string()> render) {
  static std::once_flag library_once;
  std::call_once(library_once, [] { mg_init_library(0); });

  std::unique_ptr<MetricsHttpServer> server(
      new MetricsHttpServer(std::move(render)));
  // Two threads: a scrape every few seconds, plus one spare so a slow
  // client cannot hold the endpoint alone.
  const char* options[] = {"listening_ports", listen.c_str(), "num_threads",
                           "2", "request_timeout_ms", "10000", nullptr};
  mg_callbacks callbacks;
  std::memset(&callbacks, 0, sizeof callbacks);
  callbacks.log_message = &LogCivetwebMessage;
  mg_init_data init{&callbacks, nullptr, options};
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
  return server;
}

MetricsHttpServer::~MetricsHttpServer() {
  if (context_ != nullptr) mg_stop(context_);
}

}  // namespace collide::server
