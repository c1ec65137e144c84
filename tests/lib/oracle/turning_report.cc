// Runs collide's turning pairs against the MPFR oracle on every
// degenerate family and prints one table row per family: cases,
// disagreements, the service's statuses, the largest kHit bracket width
// and the oracle's uncertain cases (exact touches it answers kNear).
//
//   turning_report [--cases=N] [--first=K] [--family=a,b]
//                  [--fail-on-disagreement] [--examples]
//
// --first=K runs cases K to K + N - 1, so a long run can be split into
// chunks (on several cores, or stopped early) whose rows add up.
// N defaults to 100000 per family.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "turning_families.h"

namespace {

using collide::TurnStatus;
using namespace collide::oracle;

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

const char* StatusName(TurnStatus s) {
  switch (s) {
    case TurnStatus::kMiss:
      return "miss";
    case TurnStatus::kHit:
      return "hit";
    case TurnStatus::kInitialOverlap:
      return "initial";
    case TurnStatus::kNearContact:
      return "near";
    case TurnStatus::kUndecided:
      return "undecided";
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  long cases = 100000;
  long first = 0;
  bool fail_on_disagreement = false;
  bool examples = false;
  std::vector<std::string> families = TurningFamilyNames();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--cases=", 0) == 0) {
      cases = std::atol(arg.c_str() + 8);
    } else if (arg.rfind("--first=", 0) == 0) {
      first = std::atol(arg.c_str() + 8);
    } else if (arg.rfind("--family=", 0) == 0) {
      families = Split(arg.substr(9));
    } else if (arg == "--fail-on-disagreement") {
      fail_on_disagreement = true;
    } else if (arg == "--examples") {
      examples = true;
    } else {
      std::fprintf(stderr, "unknown argument %s\n", arg.c_str());
      return 2;
    }
  }
  long total_disagreements = 0;
  std::printf(
      "| family | cases | disagreements | hit | initial | near | undecided | "
      "miss | oracle near/undecided | largest bracket |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const std::string& family : families) {
    long counts[5] = {};
    long disagreements = 0;
    long oracle_uncertain = 0;
    double widest = 0.0;
    TurnCase c;
    for (long i = first; i < first + cases; ++i) {
      if (!MakeTurningCase(family, static_cast<uint64_t>(i), &c)) {
        std::fprintf(stderr, "unknown family %s\n", family.c_str());
        return 2;
      }
      const collide::TurnResult s = RunService(c);
      const OracleAnswer o = TurningOracle(c.a, c.b, c.max_fraction);
      const Verdict v = Compare(s, o);
      ++counts[static_cast<int>(s.status)];
      if (!v.oracle_certain) ++oracle_uncertain;
      widest = std::max(widest, v.width);
      if (v.disagree) {
        ++disagreements;
        if (examples && disagreements <= 5) {
          std::fprintf(stderr,
                       "%s case %ld: service %s [%.17g, %.17g]; oracle kind %d "
                       "[%.17g, %.17g]\n",
                       family.c_str(), i, StatusName(s.status), s.fraction_lo,
                       s.fraction_hi, static_cast<int>(o.kind), o.lo, o.hi);
        }
      }
    }
    total_disagreements += disagreements;
    std::printf(
        "| %s | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %.3g |\n",
        family.c_str(), cases, disagreements, counts[1], counts[2], counts[3],
        counts[4], counts[0], oracle_uncertain, widest);
    std::fflush(stdout);
  }
  return fail_on_disagreement && total_disagreements > 0 ? 1 : 0;
}
