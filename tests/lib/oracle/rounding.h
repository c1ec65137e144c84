// An exact rational rounded to the double the library reports for it.
#ifndef COLLIDE_TESTS_LIB_ORACLE_ROUNDING_H_
#define COLLIDE_TESTS_LIB_ORACLE_ROUNDING_H_

#include <gmp.h>
#include <gmpxx.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace collide::oracle {

// t correctly rounded to double (to nearest, ties to even). mpq_get_d
// truncates, so at most a step or two corrects it; 4 steps bound the loop.
inline double Rounded(const mpq_class& t) {
  double r = mpq_get_d(t.get_mpq_t());
  for (int step = 0; step < 4; ++step) {
    const double up =
        std::nextafter(r, std::numeric_limits<double>::infinity());
    const double down =
        std::nextafter(r, -std::numeric_limits<double>::infinity());
    const mpq_class mid_up = (mpq_class(r) + mpq_class(up)) / 2;
    const mpq_class mid_down = (mpq_class(r) + mpq_class(down)) / 2;
    uint64_t bits;
    std::memcpy(&bits, &r, sizeof bits);
    const bool odd = (bits & 1) != 0;
    if (t > mid_up || (t == mid_up && odd)) {
      r = up;
    } else if (t < mid_down || (t == mid_down && odd)) {
      r = down;
    } else {
      break;
    }
  }
  return r;
}

}  // namespace collide::oracle

#endif  // COLLIDE_TESTS_LIB_ORACLE_ROUNDING_H_
