// A collide_server binary run as a child process, for the tests where only a
// real process can show the point: signals, restarts, a replica killed
// mid-run. Its stderr is captured; it is killed (SIGKILL) and reaped when
// the object goes away, so a failed assertion never leaves it running.
#ifndef COLLIDE_TESTS_SUPPORT_SERVER_PROCESS_H_
#define COLLIDE_TESTS_SUPPORT_SERVER_PROCESS_H_

#include <fcntl.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"

namespace collide::testing {

class ServerProcess {
 public:
  // `binary`: the collide_server executable.
  explicit ServerProcess(std::string binary) : binary_(std::move(binary)) {}
  ~ServerProcess() { Kill(); }

  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  // Starts the binary with `args` (give --listen=127.0.0.1:0 for a free
  // loopback port) and waits up to 30 s for its "listening ... (port N)" log
  // line. False if it exited or never said so. Unless `args` set
  // --admin_listen, the admin listener takes a free loopback port (not the
  // default 50052, which tests running in parallel would fight over).
  bool Start(std::vector<std::string> args) {
    bool admin_listen_given = false;
    for (const std::string& arg : args) {
      if (arg.rfind("--admin_listen", 0) == 0) admin_listen_given = true;
    }
    if (!admin_listen_given) args.push_back("--admin_listen=127.0.0.1:0");
    args.insert(args.begin(), binary_);
    // Built before fork(): the child of a threaded parent should do no more
    // than dup2 and exec.
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return false;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], STDERR_FILENO);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(fds[1]);
    if (pid_ < 0) {
      close(fds[0]);
      return false;
    }
    reader_ = std::thread([this, fd = fds[0]] { ReadLog(fd); });
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < give_up) {
      {
        absl::MutexLock lock(&mutex_);
        const size_t at = log_.find("(port ");
        if (at != std::string::npos) {
          port_ = std::atoi(log_.c_str() + at + 6);
          // Logged before the query port's line, when there is one.
          const size_t admin_at = log_.find("(admin port ");
          if (admin_at != std::string::npos) {
            admin_port_ = std::atoi(log_.c_str() + admin_at + 12);
          }
          return port_ > 0;
        }
        if (log_closed_) return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  void Signal(int signal_number) {
    if (pid_ > 0) kill(pid_, signal_number);
  }

  // SIGSTOP, then waits until every thread of it has stopped, so that from
  // the return on it answers nothing (calls to it stay in flight). False if
  // it is not running.
  bool Pause() {
    if (pid_ <= 0 || kill(pid_, SIGSTOP) != 0) return false;
    int status = 0;
    return waitpid(pid_, &status, WUNTRACED) == pid_ && WIFSTOPPED(status);
  }

  // SIGKILL, then reaps it (a killed process exits at once, so the wait is
  // short); the log stays readable. No-op once it has exited.
  void Kill() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
    if (reader_.joinable()) reader_.join();
  }

  // The exit code, or nullopt if it has not exited within `seconds` (or was
  // killed by a signal).
  std::optional<int> Wait(int seconds) {
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (pid_ > 0 && std::chrono::steady_clock::now() < give_up) {
      int status = 0;
      const pid_t done = waitpid(pid_, &status, WNOHANG);
      if (done == pid_) {
        pid_ = -1;
        if (reader_.joinable()) reader_.join();
        if (WIFEXITED(status)) return WEXITSTATUS(status);
        return std::nullopt;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return std::nullopt;
  }

  // Its process id (-1 when not running).
  pid_t pid() const { return pid_; }
  // The port it listens on, from its log (0 before Start succeeded).
  int port() const { return port_; }
  // Its admin listener's port, from its log (0 when it has none).
  int admin_port() const { return admin_port_; }
  // Everything it wrote to stderr so far.
  std::string log() {
    absl::MutexLock lock(&mutex_);
    return log_;
  }

 private:
  void ReadLog(int fd) {
    char buffer[4096];
    while (true) {
      const ssize_t n = read(fd, buffer, sizeof buffer);
      if (n <= 0) break;
      absl::MutexLock lock(&mutex_);
      log_.append(buffer, static_cast<size_t>(n));
    }
    close(fd);
    absl::MutexLock lock(&mutex_);
    log_closed_ = true;
  }

  const std::string binary_;
  pid_t pid_ = -1;
  int port_ = 0;
  int admin_port_ = 0;
  std::thread reader_;
  absl::Mutex mutex_;
  std::string log_ ABSL_GUARDED_BY(mutex_);
  bool log_closed_ ABSL_GUARDED_BY(mutex_) = false;
};

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_SERVER_PROCESS_H_
