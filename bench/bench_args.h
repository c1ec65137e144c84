// Strict command lines for the benchmark programs: "--name=value" flags, at
// most one positional argument. Anything a program does not know (an
// unknown flag, a number that does not parse whole or is out of range, a
// value outside a flag's choices, "--scene=S9") exits 2 with a line naming
// it and the usage, instead of silently running something else; --help
// prints the usage and --version the project version, both exiting 0.
//
//   ArgParser args(argc, argv, "[--scene=S1|S2|S3] [--queries=N]");
//   args.Choice("scene", &scene, {"S1", "S2", "S3"});
//   args.Int("queries", &queries, 1, 100000000);
//   args.Finish();
#ifndef COLLIDE_BENCH_BENCH_ARGS_H_
#define COLLIDE_BENCH_BENCH_ARGS_H_

#include <initializer_list>
#include <string>
#include <vector>

namespace collide_bench {

class ArgParser {
 public:
  ArgParser(int argc, char** argv, std::string usage);

  // --name=N, an integer in [min, max]; `out` keeps its default if absent.
  void Int(const char* name, int* out, int min, int max);
  // --name=X, a finite number >= min.
  void Double(const char* name, double* out, double min);
  // --name=TEXT, any text (empty allowed).
  void Text(const char* name, std::string* out);
  // --name=ONE, one of `choices`.
  void Choice(const char* name, std::string* out,
              std::initializer_list<const char*> choices);
  // The one argument not starting with "--", if any.
  void Positional(std::string* out);
  // Exits 2 naming the first argument no call above took.
  void Finish();

 private:
  // The value of --name=..., or nullptr when absent; marks it taken.
  const std::string* Take(const char* name);
  [[noreturn]] void Fail(const std::string& message) const;

  std::string program_;
  std::string usage_;
  std::vector<std::string> args_;
  std::vector<bool> taken_;
  std::vector<std::string> values_;
};

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_BENCH_ARGS_H_
