// The metrics endpoint cannot be held by connections that send nothing or
// send their request in part: the collide_server binary with its default
// --metrics_threads and --metrics_request_timeout, raw loopback sockets
// holding connections open, and curl scraping beside them. Every wait is
// bounded; the one time bound is the generous one an operator needs (a
// scrape answered within 2 s while the connections are held).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/support/server_process.h"

#ifndef COLLIDE_SERVER_BINARY
#error "COLLIDE_SERVER_BINARY must name the collide_server binary"
#endif

namespace collide::server {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kIdle = 8;
constexpr int kHalfSent = 8;

// The metrics port from the "(metrics port N)" log line; 0 if it does not
// come within 10 s.
int MetricsPort(testing::ServerProcess& server) {
  const auto give_up = Clock::now() + std::chrono::seconds(10);
  while (Clock::now() < give_up) {
    const std::string text = server.log();
    const size_t at = text.find("(metrics port ");
    if (at != std::string::npos) return std::atoi(text.c_str() + at + 14);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return 0;
}

// A connected loopback socket, or -1.
int Connect(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<const sockaddr*>(&address),
              sizeof address) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Whether the server closed `fd` (read returns 0 or an error) within
// `bound`, reading and dropping anything it sent first.
bool ClosedByServerWithin(int fd, std::chrono::milliseconds bound) {
  const Clock::time_point give_up = Clock::now() + bound;
  while (Clock::now() < give_up) {
    pollfd p{.fd = fd, .events = POLLIN, .revents = 0};
    if (poll(&p, 1, 50) <= 0) continue;
    char buffer[4096];
    if (read(fd, buffer, sizeof buffer) <= 0) return true;
  }
  return false;
}

struct Scrape {
  int exit_code = -1;
  std::string body;
  Clock::duration took{};
};

// GET /metrics with curl, giving up after `max_seconds`.
Scrape CurlScrape(int port, int max_seconds) {
  Scrape scrape;
  const Clock::time_point start = Clock::now();
  FILE* pipe =
      popen(absl::StrCat("curl --silent --show-error --max-time ", max_seconds,
                         " http://127.0.0.1:", port, "/metrics")
                .c_str(),
            "r");
  if (pipe == nullptr) return scrape;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    scrape.body.append(buffer, n);
  }
  const int status = pclose(pipe);
  scrape.took = Clock::now() - start;
  scrape.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return scrape;
}

// The value of the sample line `name value` on `page`, or -1.
double Sample(const std::string& page, const std::string& name) {
  const size_t at = page.find("\n" + name + " ");
  if (at == std::string::npos) return -1;
  const size_t start = at + name.size() + 2;
  double value = -1;
  if (!absl::SimpleAtod(page.substr(start, page.find('\n', start) - start),
                        &value)) {
    return -1;
  }
  return value;
}

double Millis(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

TEST(MetricsHoldProcessTest, IdleAndHalfSentConnectionsDoNotHoldTheEndpoint) {
  testing::ServerProcess server(COLLIDE_SERVER_BINARY);
  ASSERT_TRUE(server.Start({"--listen=127.0.0.1:0", "--default_level=false",
                            "--metrics_listen=127.0.0.1:0"}))
      << server.log();
  const int port = MetricsPort(server);
  ASSERT_GT(port, 0) << server.log();

  std::vector<int> held;
  for (int i = 0; i < kIdle + kHalfSent; ++i) {
    const int fd = Connect(port);
    ASSERT_GE(fd, 0) << "connection " << i;
    held.push_back(fd);
    if (i >= kIdle) {
      const std::string part = "GET /metrics HTTP/1.1\r\nHost: x\r\n";
      ASSERT_EQ(write(fd, part.data(), part.size()),
                static_cast<ssize_t>(part.size()));
    }
  }
  // Scrapes while all of them are open on our side: each answered in
  // under 2 s (the pool is no larger than the connections held, so the
  // first waits for the request timeout to free a thread).
  for (int round = 0; round < 3; ++round) {
    const Scrape scrape = CurlScrape(port, 5);
    EXPECT_EQ(scrape.exit_code, 0) << "round " << round;
    EXPECT_LT(scrape.took, std::chrono::seconds(2))
        << "round " << round << ": " << Millis(scrape.took) << " ms";
    EXPECT_NE(scrape.body.find("collide_metrics_connections_dropped_total"),
              std::string::npos);
    std::printf(
        "scrape %d beside %d idle and %d half-sent connections: %.0f "
        "ms\n",
        round, kIdle, kHalfSent, Millis(scrape.took));
  }
  // The server closed every held connection, unanswered, and counted it.
  for (size_t i = 0; i < held.size(); ++i) {
    EXPECT_TRUE(ClosedByServerWithin(held[i], std::chrono::seconds(5)))
        << "connection " << i << " still open";
    close(held[i]);
  }
  double dropped = -1;
  for (int attempt = 0; attempt < 50 && dropped < kIdle + kHalfSent;
       ++attempt) {
    dropped = Sample(CurlScrape(port, 5).body,
                     "collide_metrics_connections_dropped_total");
    if (dropped < kIdle + kHalfSent) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  EXPECT_GE(dropped, kIdle + kHalfSent);
  EXPECT_NE(server.log().find("metrics endpoint: closed "), std::string::npos)
      << server.log();
}

TEST(MetricsHoldProcessTest, ARequestTrickledByteByByteIsCutOff) {
  testing::ServerProcess server(COLLIDE_SERVER_BINARY);
  ASSERT_TRUE(server.Start({"--listen=127.0.0.1:0", "--default_level=false",
                            "--metrics_listen=127.0.0.1:0",
                            "--metrics_request_timeout=500ms"}))
      << server.log();
  const int port = MetricsPort(server);
  ASSERT_GT(port, 0) << server.log();
  const int fd = Connect(port);
  ASSERT_GE(fd, 0);
  // One byte every 100 ms never completes the headers; the timeout counts
  // from the start, so the server closes it after about 500 ms however
  // often bytes come.
  const std::string request = "GET /metrics HTTP/1.1\r\nHost: trickle\r\n";
  const Clock::time_point start = Clock::now();
  bool closed = false;
  for (size_t i = 0; i < request.size() && !closed; ++i) {
    if (write(fd, &request[i], 1) != 1) break;
    closed = ClosedByServerWithin(fd, std::chrono::milliseconds(100));
  }
  if (!closed) closed = ClosedByServerWithin(fd, std::chrono::seconds(3));
  const Clock::duration took = Clock::now() - start;
  close(fd);
  EXPECT_TRUE(closed);
  EXPECT_LT(took, std::chrono::seconds(3)) << Millis(took) << " ms";
  std::printf("trickled request closed after %.0f ms\n", Millis(took));
}

}  // namespace
}  // namespace collide::server
