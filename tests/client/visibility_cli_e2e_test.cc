// collide-cli's line-of-sight commands (visible, visibility-polygon, with
// --svg) and the two-way filter flags (--category, --group) as a user runs
// them: the real binary against the real server process, its output, its
// pictures and its exit status.
#include <stdio.h>
#include <sys/wait.h>

#include <array>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/client/test_server.h"
#include "tests/support/run_program.h"
#include "tests/support/temp_dir.h"

namespace collide::client {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Level "sight": a box (id 1) of half size 1 at the origin; a wall (id 2)
// x = 5, y in [-1, 1]; a glass pane (id 3, category 2) x = -5, y in
// [-1, 1]; above them a wall (id 4, y = 10) that blocks only query
// category 4 and one (id 5, y = 12) of group -7.
constexpr char kSightLevel[] = R"json({"id": "sight", "shapes": [
  {"id": "1", "box": {"center": {"x": 0, "y": 0},
                      "halfExtents": {"x": 1, "y": 1}}},
  {"id": "2", "segment": {"p1": {"x": 5, "y": -1}, "p2": {"x": 5, "y": 1}}},
  {"id": "3", "categoryBits": "2",
   "segment": {"p1": {"x": -5, "y": -1}, "p2": {"x": -5, "y": 1}}},
  {"id": "4", "maskBits": "4",
   "segment": {"p1": {"x": -20, "y": 10}, "p2": {"x": 20, "y": 10}}},
  {"id": "5", "group": -7,
   "segment": {"p1": {"x": -20, "y": 12}, "p2": {"x": 20, "y": 12}}}]})json";

// Viewers (-10, 0); (10, 0) with range 4 facing -x within 0.5 rad; (0, 0)
// inside the box. Targets (10, 0), (-10, 5), (-7, 0), a circle at (-3, 0),
// (6, 0), (10, 4).
constexpr char kTick[] =
    "--viewer=-10,0 --viewer=10,0,4,-1,0,0.5 --viewer=0,0 --target=10,0 "
    "--target=-10,5 --target=-7,0 --target=-3,0,0.5 --target=6,0 "
    "--target=10,4";

using Outcome = ::collide::testing::ProgramOutcome;

// Runs the CLI through the shell (paths here have no spaces) and captures
// what it printed. Bounded: the CLI's calls all have deadlines.
Outcome RunCli(const std::string& args) {
  return ::collide::testing::RunShellCommand(
      absl::StrCat(COLLIDE_CLI_BINARY, " ", args, " 2>&1"));
}

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  std::stringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

class VisibilityCliE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = testing::StartTestServer();
    ASSERT_NE(server_, nullptr) << "collide_server did not start";
    address_ =
        absl::StrCat("--address=127.0.0.1:", server_->port(),
                     " --admin_address=127.0.0.1:", server_->admin_port());
    dir_ = dir_holder_.path();
    ASSERT_FALSE(dir_.empty());
    const std::string level = absl::StrCat(dir_, "/sight.json");
    std::ofstream(level) << kSightLevel;
    const Outcome put = Cli(absl::StrCat("put ", level));
    ASSERT_EQ(put.exit_code, 0) << put.out;
  }

  Outcome Cli(const std::string& args) {
    return RunCli(absl::StrCat(address_, " ", args));
  }

  std::unique_ptr<collide::testing::ServerProcess> server_;
  std::string address_;
  collide::testing::TempDir dir_holder_;
  std::string dir_;
};

TEST_F(VisibilityCliE2eTest, VisiblePrintsWhatEachViewerSees) {
  const Outcome tick = Cli(absl::StrCat("--level=sight visible ", kTick));
  EXPECT_EQ(tick.exit_code, 0) << tick.out;
  EXPECT_THAT(tick.out, HasSubstr("#1 visibility: 3 viewers, 6 targets\n"
                                  "  viewer 0 at (-10, 0): sees 2 of 6: t1 "
                                  "t2\n"
                                  "  viewer 1 at (10, 0) range 4 cone (-1, "
                                  "0) +-0.5: sees 2 of 6: t0 t4\n"
                                  "  viewer 2 at (0, 0): sees 0 of 6\n"));
  // The glass out of the mask: viewer 0 sees through it.
  const Outcome glass =
      Cli(absl::StrCat("--level=sight visible --mask=1 ", kTick));
  EXPECT_EQ(glass.exit_code, 0) << glass.out;
  EXPECT_THAT(glass.out,
              HasSubstr("  viewer 0 at (-10, 0): sees 4 of 6: t1 t2 t3 t5\n"));
}

// From (3, 0) the wall at x = 5 hides the centre of the circle at (8, 0)
// but not its edges: radius 3 spans more directions than the wall.
TEST_F(VisibilityCliE2eTest, AnyPartSeesACircleWhoseCentreIsHidden) {
  const std::string targets = "--viewer=3,0 --target=8,0,3 --target=8,0";
  const Outcome centre = Cli(absl::StrCat("--level=sight visible ", targets));
  EXPECT_EQ(centre.exit_code, 0) << centre.out;
  EXPECT_THAT(centre.out, HasSubstr("#1 visibility: 1 viewer, 2 targets\n"
                                    "  viewer 0 at (3, 0): sees 0 of 2\n"));
  const Outcome any =
      Cli(absl::StrCat("--level=sight visible --any_part ", targets));
  EXPECT_EQ(any.exit_code, 0) << any.out;
  EXPECT_THAT(any.out, HasSubstr("#1 visibility: 1 viewer, 2 targets (circles "
                                 "by any part)\n"
                                 "  viewer 0 at (3, 0): sees 1 of 2: t0\n"));
}

TEST_F(VisibilityCliE2eTest, VisibleDrawsViewersConesAndTargetsSeenOrNot) {
  const std::string svg = absl::StrCat(dir_, "/sight.svg");
  const Outcome tick =
      Cli(absl::StrCat("--level=sight visible ", kTick, " --svg=", svg));
  EXPECT_EQ(tick.exit_code, 0) << tick.out;
  const std::string picture = ReadFile(svg);
  EXPECT_THAT(picture, HasSubstr("<svg"));
  for (const char* mark :
       {"class=\"viewer\"", "class=\"range\"", "class=\"cone\"",
        "class=\"sight\"", "class=\"seen\"", "class=\"unseen\"",
        "viewer, range, cone", "line of sight", "target seen",
        "target not seen", "#1 t3 not seen", "v1 sees t4"}) {
    EXPECT_THAT(picture, HasSubstr(mark)) << mark;
  }
}

TEST_F(VisibilityCliE2eTest, VisibilityPolygonListsAndDrawsItsVertices) {
  const std::string svg = absl::StrCat(dir_, "/polygon.svg");
  const Outcome polygon =
      Cli(absl::StrCat("--level=sight visibility-polygon --viewer=10,0 "
                       "--range=8 --svg=",
                       svg));
  EXPECT_EQ(polygon.exit_code, 0) << polygon.out;
  EXPECT_THAT(polygon.out,
              HasSubstr("#1 visibility polygon from (10, 0) within 8\n"));
  EXPECT_THAT(polygon.out, HasSubstr("vertices, counter-clockwise:\n"));
  EXPECT_THAT(polygon.out, HasSubstr("    (5, 1) level vertex of shape 2\n"));
  EXPECT_THAT(polygon.out, HasSubstr("    (5, -1) level vertex of shape 2\n"));
  EXPECT_THAT(polygon.out, HasSubstr(" arc\n"));
  const std::string picture = ReadFile(svg);
  EXPECT_THAT(picture, HasSubstr("class=\"visible\""));
  EXPECT_THAT(picture, HasSubstr("visible region"));
  const Outcome inside =
      Cli("--level=sight visibility-polygon --viewer=0,0 --range=8 "
          "--max_arc_angle=0.1");
  EXPECT_EQ(inside.exit_code, 0) << inside.out;
  EXPECT_THAT(inside.out, HasSubstr("  sees nothing (inside a solid)\n"));
}

TEST_F(VisibilityCliE2eTest, BadViewersAndTargetsExitWithTheFieldNamed) {
  // The command line: exit 2, naming the flag.
  const Outcome typo = Cli("--level=sight visible --viewer=1,x --target=1,1");
  EXPECT_EQ(typo.exit_code, 2) << typo.out;
  EXPECT_THAT(typo.out, HasSubstr("--viewer: \"1,x\" is not a viewer "
                                  "x,y[,range[,dirx,diry,half]] of finite "
                                  "numbers"));
  const Outcome target = Cli("--level=sight visible --viewer=1,1 --target=1");
  EXPECT_EQ(target.exit_code, 2) << target.out;
  EXPECT_THAT(target.out, HasSubstr("--target: \"1\" is not a target x,y[,r]"));
  const Outcome none = Cli("--level=sight visible --target=1,1");
  EXPECT_EQ(none.exit_code, 2) << none.out;
  EXPECT_THAT(none.out, HasSubstr("--viewer: required"));
  const Outcome no_range = Cli("--level=sight visibility-polygon --viewer=1,1");
  EXPECT_EQ(no_range.exit_code, 2) << no_range.out;
  EXPECT_THAT(no_range.out, HasSubstr("--range: required"));
  // The server's refusals: exit 1, the field and value as sent.
  const Outcome range =
      Cli("--level=sight visible --viewer=0,5,-1 --target=1,1");
  EXPECT_EQ(range.exit_code, 1) << range.out;
  EXPECT_THAT(range.out,
              HasSubstr("error INVALID_ARGUMENT: queries[0].visibility."
                        "viewers[0].range must be >= 0, got -1"));
  const Outcome half =
      Cli("--level=sight visible --viewer=0,5,,1,0,4 --target=1,1");
  EXPECT_EQ(half.exit_code, 1) << half.out;
  EXPECT_THAT(half.out, HasSubstr("viewers[0].cone.half_angle_radians must "
                                  "be in [0, pi] (pi: 3.141592653589793), "
                                  "got 4"));
  const Outcome cone =
      Cli("--level=sight visible --viewer=0,5,,0,0,0.5 --target=1,1");
  EXPECT_EQ(cone.exit_code, 1) << cone.out;
  EXPECT_THAT(cone.out,
              HasSubstr("viewers[0].cone.direction must not be (0, 0)"));
  const Outcome zero =
      Cli("--level=sight visibility-polygon --viewer=0,5 --range=0");
  EXPECT_EQ(zero.exit_code, 1) << zero.out;
  EXPECT_THAT(zero.out, HasSubstr("queries[0].visibility_polygon.range must "
                                  "be > 0, got 0"));
}

TEST_F(VisibilityCliE2eTest, CategoryAndGroupFlagsFilterEveryQueryKind) {
  // A ray down from (0, 20): the group -7 wall at y = 12 first, the
  // category 4 wall at y = 10 only for a query of category 4.
  const std::string ray = "--level=sight cast ray --from=0,20 --to=0,5";
  EXPECT_THAT(Cli(ray).out, HasSubstr("hit shape 5 "));
  EXPECT_THAT(Cli(ray + " --category=4").out, HasSubstr("hit shape 5 "));
  EXPECT_THAT(Cli(ray + " --group=-7").out, HasSubstr("  miss\n"));
  EXPECT_THAT(Cli(ray + " --group=-7 --category=4").out,
              HasSubstr("hit shape 4 "));
  // The same filters on a closest-point query and a move.
  const std::string closest = "--level=sight closest --from=0,20";
  EXPECT_THAT(Cli(closest).out, HasSubstr("  shape 5 "));
  EXPECT_THAT(Cli(closest + " --group=-7 --category=4").out,
              HasSubstr("  shape 4 "));
  EXPECT_THAT(Cli(closest + " --group=-7").out, HasSubstr("  shape 1 "));
  const std::string move =
      "--level=sight move circle --from=0,20 --radius=0.5 --by=0,-15";
  EXPECT_THAT(Cli(move).out, HasSubstr("first hit shape 5 "));
  EXPECT_THAT(Cli(move + " --category=4 --group=-7").out,
              HasSubstr("first hit shape 4 "));
  // A group that is not a number is a bad command line.
  const Outcome bad = Cli(ray + " --group=x");
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_THAT(bad.out, HasSubstr("--group"));
  // The filter reaches visibility too: category 4 makes the y = 10 wall
  // occlude the sight line from (0, 5) to (0, 15).
  const std::string sight =
      "--level=sight visible --viewer=0,5 --target=0,15 --group=-7";
  EXPECT_THAT(Cli(sight).out, HasSubstr("sees 1 of 1: t0\n"));
  EXPECT_THAT(Cli(sight + " --category=4").out, HasSubstr("sees 0 of 1\n"));
}

}  // namespace
}  // namespace collide::client
