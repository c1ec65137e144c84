// A real redis-server run as a child process on a loopback port, for the
// shared level store's tests: no persistence (--save "" --appendonly no),
// its files in a directory of the test's. Killed (SIGKILL) and reaped when
// the object goes away; Start() again on the same port is a Redis
// restarted empty.
#ifndef COLLIDE_TESTS_SUPPORT_REDIS_PROCESS_H_
#define COLLIDE_TESTS_SUPPORT_REDIS_PROCESS_H_

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace collide::testing {

// A loopback TCP port free at the time of the call (bound to port 0 and
// released), for a server that cannot report the port it picked.
inline int FreeLoopbackPort() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  close(fd);
  return port;
}

class RedisProcess {
 public:
  // `dir`: where redis-server may write (it writes nothing without
  // persistence, but needs a working directory of its own).
  explicit RedisProcess(std::string dir) : dir_(std::move(dir)) {}
  ~RedisProcess() { Kill(); }
  RedisProcess(const RedisProcess&) = delete;
  RedisProcess& operator=(const RedisProcess&) = delete;

  // Starts redis-server (from PATH) on 127.0.0.1:`port`, with `extra_args`
  // after the usual ones (ACL users: {"--user", "name", "on", ">password",
  // ...}), and waits up to 10 s until it answers PING (through redis-cli,
  // with cli_auth). False if it did not.
  bool Start(int port, const std::vector<std::string>& extra_args = {}) {
    port_ = port;
    std::vector<std::string> args = {"redis-server",
                                     "--port",
                                     std::to_string(port),
                                     "--bind",
                                     "127.0.0.1",
                                     "--save",
                                     "",
                                     "--appendonly",
                                     "no",
                                     "--dir",
                                     dir_,
                                     "--logfile",
                                     dir_ + "/redis.log"};
    args.insert(args.end(), extra_args.begin(), extra_args.end());
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    pid_ = fork();
    if (pid_ == 0) {
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, STDOUT_FILENO);
      execvp(argv[0], argv.data());
      _exit(127);
    }
    if (pid_ < 0) return false;
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < give_up) {
      if (Cli("PING") == "PONG\n") return true;
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  // SIGKILL, then reaps it. No-op when not running.
  void Kill() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }

  // What `redis-cli -p PORT {command}` prints ("" when it fails); the
  // command's words are passed through the shell as they are.
  std::string Cli(const std::string& command) const {
    const std::string line = "redis-cli -h 127.0.0.1 -p " +
                             std::to_string(port_) + " " + cli_auth_ + " " +
                             command + " 2>/dev/null";
    std::string out;
    if (FILE* pipe = popen(line.c_str(), "r")) {
      char buffer[4096];
      size_t n;
      while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) {
        out.append(buffer, n);
      }
      if (pclose(pipe) != 0) return "";
    }
    return out;
  }

  int port() const { return port_; }

  // redis-cli options that authenticate Cli()'s commands, e.g.
  // "--user collide --pass secret --no-auth-warning".
  void set_cli_auth(std::string auth) { cli_auth_ = std::move(auth); }

 private:
  std::string cli_auth_;
  const std::string dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_REDIS_PROCESS_H_
