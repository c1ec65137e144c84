// Circle targets seen by any part (collide/visible_disc.h) on the
// degenerate discs of degenerate_sight.h, judged by the exact sight
// oracle: family `sight-circle-target`.
#ifndef COLLIDE_TESTS_LIB_ORACLE_DEGENERATE_SIGHT_DISC_H_
#define COLLIDE_TESTS_LIB_ORACLE_DEGENERATE_SIGHT_DISC_H_

namespace collide::oracle {

inline constexpr const char* kSightDiscFamily = "sight-circle-target";

// Runs `cases` cases (GenerateSightDiscs: discs touching edge lines, the
// range, cone edges and sight lines through vertices, through vertices,
// radius 0, the viewer on the circle; offsets 0, 1e6 and 1e9), each disc
// judged by SeesDisc. The oracle decides in GMP where it can:
// - radius 0: as the sight line to the centre (SeesExact);
// - the viewer in the closed disc: seen unless inside a solid;
// - otherwise seen when a point of the disc (exactly inside it, in GMP)
//   is seen by SeesExact: the constructed touching points, the centre,
//   and points just inside the disc along 32 directions across it and
//   along the directions of the occluders' vertices.
// A disc the oracle decides and SeesDisc answers otherwise is a
// disagreement; SeesDisc "seen" where the oracle finds no seen point (a
// disc seen only along a sight line no double point of it lies on, or
// between two samples) is counted apart as unconfirmed. Prints one line
// and the first `show` disagreements; adds them to *disagreements.
void RunSightDiscFamily(int cases, int show, int* disagreements);

}  // namespace collide::oracle

#endif  // COLLIDE_TESTS_LIB_ORACLE_DEGENERATE_SIGHT_DISC_H_
