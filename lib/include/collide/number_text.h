// Numbers in messages, printed so that they read back as the same double.
#ifndef COLLIDE_NUMBER_TEXT_H_
#define COLLIDE_NUMBER_TEXT_H_

#include <string>

namespace collide {

// The shortest decimal text that parses back to exactly `value`
// (std::to_chars's shortest round trip), so that an error never shows a
// refused value as one that would pass: 1.0000000000000002, not 1.
// Fixed notation for magnitudes in [1e-4, 1e17) and zero ("0.25", "100000",
// "-0"), scientific with a signed two-digit or longer exponent otherwise
// ("1e-05", "1.0000000000000002e+60"); "inf", "-inf" and "nan" for the
// non-finite values.
std::string NumberText(double value);

}  // namespace collide

#endif  // COLLIDE_NUMBER_TEXT_H_
