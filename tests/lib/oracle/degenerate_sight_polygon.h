// The visibility polygon (collide/visibility_polygon.h) on the degenerate
// line-of-sight cases of degenerate_sight.h, judged by the exact sight
// oracle: family `sight-polygon`.
#ifndef COLLIDE_TESTS_LIB_ORACLE_DEGENERATE_SIGHT_POLYGON_H_
#define COLLIDE_TESTS_LIB_ORACLE_DEGENERATE_SIGHT_POLYGON_H_

namespace collide::oracle {

inline constexpr const char* kSightPolygonFamily = "sight-polygon";

// Runs `cases` cases: level vertices collinear with the viewer, the viewer
// on an edge's line or a solid's boundary, occluders touching at vertices
// and sharing lines (the sight-vertex, sight-edge and sight-collinear
// constructions, offsets 0, 1e6 and 1e9, scales 2^-199 to 2^140), each with
// a range. Per case it checks, exactly where the oracle can:
// - the viewer is inside an occluder (GMP) exactly when the polygon is
//   empty;
// - every kLevelVertex vertex is, bitwise, a vertex of the shape it names;
//   every vertex lies within the range (up to the stated error);
// - probe points on both sides of every polygon edge not on the range, at
//   4 times the error margin, and the case's targets: each one farther
//   than the margin from the boundary is inside exactly when the oracle
//   says the viewer sees it, unless it lies exactly on a line through the
//   viewer and an occluder vertex (a sight line of zero width, which the
//   polygon does not draw; counted apart).
// Prints one line and the first `show` disagreements; adds them to
// *disagreements.
void RunSightPolygonFamily(int cases, int show, int* disagreements);

}  // namespace collide::oracle

#endif  // COLLIDE_TESTS_LIB_ORACLE_DEGENERATE_SIGHT_POLYGON_H_
