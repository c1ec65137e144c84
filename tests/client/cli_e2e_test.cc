// collide-cli as a user runs it: the real binary against the real server
// (in-process, ephemeral loopback port), its output and exit status.
#include <stdio.h>
#include <sys/wait.h>

#include <array>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "collide/v1/collision_service.pb.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "proto/formats/level_file.h"
#include "tests/client/test_server.h"
#include "tests/support/run_program.h"
#include "tests/support/temp_dir.h"

namespace collide::client {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using Outcome = ::collide::testing::ProgramOutcome;

// Runs `args` through the shell (paths here have no spaces) and captures
// what it printed. Bounded: the CLI's calls all have deadlines.
Outcome RunProgram(const std::string& program, const std::string& args) {
  return ::collide::testing::RunShellCommand(
      absl::StrCat(program, " ", args, " 2>&1"));
}

Outcome RunCli(const std::string& args) {
  return RunProgram(COLLIDE_CLI_BINARY, args);
}

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  std::stringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

class CliE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = testing::StartTestServer();
    ASSERT_NE(server_, nullptr) << "collide_server did not start";
    // put and delete go to the admin listener.
    address_ =
        absl::StrCat("--address=127.0.0.1:", server_->port(),
                     " --admin_address=127.0.0.1:", server_->admin_port());
    ASSERT_FALSE(dir_holder_.path().empty());
    dir_ = dir_holder_.path();
  }

  Outcome Cli(const std::string& args) {
    return RunCli(absl::StrCat(address_, " ", args));
  }

  std::unique_ptr<collide::testing::ServerProcess> server_;
  std::string address_;
  // Removed with everything in it when the test ends.
  collide::testing::TempDir dir_holder_;
  std::string dir_;
};

TEST_F(CliE2eTest, HealthAndLevels) {
  Outcome health = Cli("health");
  EXPECT_EQ(health.exit_code, 0) << health.out;
  EXPECT_THAT(health.out, HasSubstr("SERVING"));
  Outcome levels = Cli("levels");
  EXPECT_EQ(levels.exit_code, 0) << levels.out;
  EXPECT_THAT(levels.out, HasSubstr("levels/arena  version 1  15 shapes"));
}

TEST_F(CliE2eTest, PutCastDescribeGetDelete) {
  Outcome put = Cli(absl::StrCat("put ", COLLIDE_EXAMPLE_LEVEL));
  EXPECT_EQ(put.exit_code, 0) << put.out;
  EXPECT_THAT(put.out, HasSubstr("created levels/dock"));

  Outcome cast = Cli("--level=arena cast ray --from=0,0 --to=30,0");
  EXPECT_EQ(cast.exit_code, 0) << cast.out;
  EXPECT_THAT(cast.out, HasSubstr("hit shape 10 (user_data 1000) at fraction "
                                  "0.283333: point (8.5, 0), normal (-1, 0)"));

  Outcome json = Cli("--json cast circle --from=0,5 --radius=0.5 --by=10,0");
  EXPECT_EQ(json.exit_code, 0) << json.out;
  v1::RunQueriesResponse parsed;
  ASSERT_TRUE(
      google::protobuf::util::JsonStringToMessage(json.out, &parsed).ok())
      << json.out;
  ASSERT_EQ(parsed.results_size(), 1);
  EXPECT_EQ(parsed.results(0).cast().hits(0).shape_id(), 20u);

  const std::string saved = absl::StrCat(dir_, "/dock.json");
  Outcome get = Cli(absl::StrCat("get dock --out=", saved));
  EXPECT_EQ(get.exit_code, 0) << get.out;
  absl::StatusOr<v1::Level> level = formats::ReadLevelFile(saved, 1 << 20);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->id(), "dock");

  EXPECT_EQ(Cli("delete dock").exit_code, 0);
  Outcome gone = Cli("describe dock");
  EXPECT_EQ(gone.exit_code, 1);
  EXPECT_THAT(gone.out, HasSubstr("NOT_FOUND"));
}

TEST_F(CliE2eTest, PatchChangesShapesOfTheLevel) {
  const std::string patch = absl::StrCat(dir_, "/patch.json");
  {
    std::ofstream out(patch);
    // Shape 10 of the arena is the wall the ray from the origin meets.
    out << R"({"removeIds": ["10"], "upserts": [{"id": "99", "userData": "7",
        "circle": {"center": {"x": 5, "y": 0}, "radius": 1}}]})";
  }
  Outcome patched = Cli(absl::StrCat("--level=arena patch ", patch));
  EXPECT_EQ(patched.exit_code, 0) << patched.out;
  EXPECT_THAT(patched.out, HasSubstr("patched levels/arena  version 2"));
  Outcome cast = Cli("--level=arena cast ray --from=0,0 --to=30,0");
  EXPECT_EQ(cast.exit_code, 0) << cast.out;
  EXPECT_THAT(cast.out, HasSubstr("hit shape 99 (user_data 7)"));
  // The same patch again: shape 10 is gone.
  Outcome again = Cli(absl::StrCat("--level=arena patch ", patch));
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_THAT(again.out, HasSubstr("NOT_FOUND"));
}

// Writes `contents` to `name` in the test's folder and returns its path.
std::string WriteFile(const std::string& dir, const std::string& name,
                      const std::string& contents) {
  const std::string path = absl::StrCat(dir, "/", name);
  std::ofstream out(path);
  out << contents;
  return path;
}

// A patch whose file names "levels/dock" changes dock, never the default
// arena, with or without a --level that agrees.
TEST_F(CliE2eTest, PatchFileNamingALevelChangesThatLevel) {
  ASSERT_EQ(Cli(absl::StrCat("put ", COLLIDE_EXAMPLE_LEVEL)).exit_code, 0);
  const std::string patch = WriteFile(dir_, "dock_patch.json", R"({
      "level": "levels/dock", "upserts": [{"id": "99",
      "circle": {"center": {"x": 5, "y": -5}, "radius": 1}}]})");
  Outcome patched = Cli(absl::StrCat("patch ", patch));
  EXPECT_EQ(patched.exit_code, 0) << patched.out;
  EXPECT_THAT(patched.out, HasSubstr("patched levels/dock  version"));
  EXPECT_THAT(Cli("describe arena").out, HasSubstr("levels/arena  version 1"));
  EXPECT_THAT(Cli("describe dock").out, HasSubstr("7 shapes"));
  // A --level naming the same level, by id or full name, is no conflict.
  for (const char* same : {"dock", "levels/dock"}) {
    Outcome again = Cli(absl::StrCat("--level=", same, " patch ", patch));
    EXPECT_EQ(again.exit_code, 0) << same << ": " << again.out;
    EXPECT_THAT(again.out, HasSubstr("patched levels/dock")) << same;
  }
  EXPECT_THAT(Cli("describe arena").out, HasSubstr("levels/arena  version 1"));
}

// A file and a --level naming different levels: exit 2, both named, and no
// level changed or queried.
TEST_F(CliE2eTest, FileAndFlagThatDisagreeExit2NamingBoth) {
  ASSERT_EQ(Cli(absl::StrCat("put ", COLLIDE_EXAMPLE_LEVEL)).exit_code, 0);
  const std::string patch = WriteFile(dir_, "dock_patch.json", R"({
      "level": "levels/dock", "removeIds": ["1"]})");
  const std::string batch = WriteFile(dir_, "dock_batch.json", R"({
      "level": "levels/dock", "queries": [{"rayCast": {
      "origin": {"x": 5, "y": -5}, "translation": {"x": 0, "y": 20}}}]})");
  for (const std::string& args :
       {absl::StrCat("--level=arena patch ", patch),
        absl::StrCat("--level=levels/arena patch ", patch),
        absl::StrCat("--level=arena run ", batch),
        absl::StrCat("--level=arena render --queries=", batch, " --out=", dir_,
                     "/no.svg")}) {
    Outcome refused = Cli(args);
    EXPECT_EQ(refused.exit_code, 2) << args << ": " << refused.out;
    EXPECT_THAT(refused.out, HasSubstr("arena and ")) << args;
    EXPECT_THAT(refused.out, HasSubstr("\"level\": \"levels/dock\"")) << args;
    EXPECT_THAT(refused.out, HasSubstr("name different levels")) << args;
  }
  EXPECT_THAT(Cli("describe arena").out, HasSubstr("levels/arena  version 1"));
  EXPECT_THAT(Cli("describe dock").out, HasSubstr("6 shapes"));
}

// A file that names no level takes --level, else arena; a file that names
// one is run on it without any flag.
TEST_F(CliE2eTest, RunTakesTheFilesLevelElseTheFlag) {
  ASSERT_EQ(Cli(absl::StrCat("put ", COLLIDE_EXAMPLE_LEVEL)).exit_code, 0);
  // Straight up through dock's segment 1 (y = 0); in the arena it meets
  // nothing before y = 15.
  const std::string query = R"("queries": [{"rayCast": {
      "origin": {"x": 5, "y": -5}, "translation": {"x": 0, "y": 20}}}])";
  const std::string dock =
      WriteFile(dir_, "dock.json",
                absl::StrCat(R"({"level": "levels/dock", )", query, "}"));
  const std::string unnamed =
      WriteFile(dir_, "unnamed.json", absl::StrCat("{", query, "}"));
  Outcome on_dock = Cli(absl::StrCat("run ", dock));
  EXPECT_EQ(on_dock.exit_code, 0) << on_dock.out;
  EXPECT_THAT(on_dock.out, HasSubstr("hit shape 1 (user_data 0)"));
  Outcome flag = Cli(absl::StrCat("--level=dock run ", unnamed));
  EXPECT_EQ(flag.exit_code, 0) << flag.out;
  EXPECT_THAT(flag.out, HasSubstr("hit shape 1 (user_data 0)"));
  Outcome arena = Cli(absl::StrCat("run ", unnamed));
  EXPECT_EQ(arena.exit_code, 0) << arena.out;
  EXPECT_THAT(arena.out, Not(HasSubstr("hit shape 1 ")));
}

TEST_F(CliE2eTest, RunFileAndRenderIt) {
  Outcome run = Cli(absl::StrCat("run ", COLLIDE_EXAMPLE_QUERIES));
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_THAT(run.out, HasSubstr("#7 closest point to (12, 9)"));
  EXPECT_THAT(run.out, HasSubstr("overlaps shape 21"));

  const std::string svg = absl::StrCat(dir_, "/casts.svg");
  Outcome render = Cli(absl::StrCat(
      "render --queries=", COLLIDE_EXAMPLE_QUERIES, " --out=", svg));
  EXPECT_EQ(render.exit_code, 0) << render.out;
  const std::string picture = ReadFile(svg);
  EXPECT_THAT(picture, HasSubstr("<svg"));
  EXPECT_THAT(picture, HasSubstr("</svg>"));
}

TEST_F(CliE2eTest, ValidatesMovesAndShots) {
  Outcome run = Cli(absl::StrCat("run ", COLLIDE_VALIDATION_QUERIES));
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_THAT(run.out, HasSubstr("hit target 8 at fraction"));
  EXPECT_THAT(run.out, HasSubstr("blocked by wall shape 11"));
  EXPECT_THAT(run.out, HasSubstr("contact at fraction 0.4"));
  // The turning blade (a deforming segment) and the point falling onto it.
  EXPECT_THAT(run.out, HasSubstr("b turning to (10, 18)-(10, 24)"));
  EXPECT_THAT(run.out, HasSubstr("contact at fraction 0.431271"));
  Outcome move = Cli(
      "move circle --from=0,5 --radius=0.5 --by=10,0 --skin=0.01 --slide=4");
  EXPECT_EQ(move.exit_code, 0) << move.out;
  EXPECT_THAT(move.out, HasSubstr("blocked: safe to fraction 0.349"));
  EXPECT_THAT(move.out, HasSubstr("claimed end not reachable"));
}

// A sword (hand at (6, 0), blade 3 long pointing down, radius 0.1)
// swinging a quarter turn counter-clockwise: its tip's rim reaches pillar
// 10 (radius 1.5 at (10, 0)) when the tip is 1.6 from the pillar's centre,
// cos(phi) = (25 - 1.6^2) / 24: at 1 - acos(0.935) / (pi / 2) of the turn.
TEST_F(CliE2eTest, CastTurnsWithAngleAndPivot) {
  Outcome swing =
      Cli("--level=arena cast capsule --points=\"6,0 6,-3\" --radius=0.1 "
          "--by=0,0 --angle=1.5707963267948966 --pivot=6,0");
  EXPECT_EQ(swing.exit_code, 0) << swing.out;
  EXPECT_THAT(swing.out, HasSubstr("hit shape 10 (user_data 1000) at "
                                   "fraction 0.769202"));
  EXPECT_THAT(swing.out, HasSubstr("(TURN_STATUS_HIT)"));
  Outcome bad =
      Cli("--level=arena cast capsule --points=\"6,0 6,-3\" --radius=0.1 "
          "--by=0,0 --angle=nan");
  EXPECT_EQ(bad.exit_code, 1) << bad.out;
  EXPECT_THAT(bad.out, HasSubstr("capsule_cast.turn.angle must be finite"));
  Outcome ray = Cli("--level=arena cast ray --from=0,0 --by=1,0 --angle=1");
  EXPECT_EQ(ray.exit_code, 2) << ray.out;
  EXPECT_THAT(ray.out, HasSubstr("--angle"));
}

TEST_F(CliE2eTest, ImportTiledWritesALevelFile) {
  const std::string out = absl::StrCat(dir_, "/yard.json");
  Outcome imported = RunCli(absl::StrCat("import-tiled ", COLLIDE_TILED_MAP,
                                         " --id=yard --out=", out));
  EXPECT_EQ(imported.exit_code, 0) << imported.out;
  absl::StatusOr<v1::Level> level = formats::ReadLevelFile(out, 1 << 20);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->id(), "yard");
  EXPECT_GT(level->shapes_size(), 0);
  EXPECT_EQ(level->y_axis(), v1::Y_AXIS_DOWN);
  Outcome put = Cli(absl::StrCat("put ", out));
  EXPECT_EQ(put.exit_code, 0) << put.out;
  // The server keeps the level's y axis, so render draws it y down.
  const std::string fetched = absl::StrCat(dir_, "/fetched.json");
  Outcome get = Cli(absl::StrCat("get yard --out=", fetched));
  EXPECT_EQ(get.exit_code, 0) << get.out;
  absl::StatusOr<v1::Level> kept = formats::ReadLevelFile(fetched, 1 << 20);
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(kept->y_axis(), v1::Y_AXIS_DOWN);
  Outcome render =
      Cli(absl::StrCat("--level=yard render --out=", dir_, "/yard.svg"));
  EXPECT_EQ(render.exit_code, 0) << render.out;
  Outcome sideways = Cli(absl::StrCat("--level=yard render --y_axis=sideways",
                                      " --out=", dir_, "/no.svg"));
  EXPECT_EQ(sideways.exit_code, 2);
  EXPECT_THAT(sideways.out, HasSubstr("--y_axis"));
}

TEST_F(CliE2eTest, BadInputIsAClearErrorAndExitStatus) {
  Outcome bad_point = Cli("cast ray --from=0,x --to=1,1");
  EXPECT_EQ(bad_point.exit_code, 2);
  EXPECT_THAT(bad_point.out, HasSubstr("--from"));
  Outcome bad_radius = Cli("cast circle --from=0,0 --radius=-1 --by=1,0");
  EXPECT_EQ(bad_radius.exit_code, 1);
  EXPECT_THAT(bad_radius.out,
              HasSubstr("INVALID_ARGUMENT: queries[0].circle_cast.circle."
                        "radius must be >= 0"));
  EXPECT_EQ(Cli("frobnicate").exit_code, 2);
  EXPECT_EQ(Cli("--level=nope cast ray --from=0,0 --by=1,0").exit_code, 1);
  Outcome unreachable = RunCli("--address=127.0.0.1:1 --timeout=2s levels");
  EXPECT_EQ(unreachable.exit_code, 1);
  EXPECT_THAT(unreachable.out, HasSubstr("UNAVAILABLE"));
}

// `-o FILE` is --out=FILE, the one short option: `import-tiled MAP -o
// LEVEL.json` writes the level file.
TEST_F(CliE2eTest, ImportTiledTakesDashOForOut) {
  const std::string out = absl::StrCat(dir_, "/level2.json");
  Outcome imported =
      RunCli(absl::StrCat("import-tiled ", COLLIDE_TILED_MAP, " -o ", out));
  EXPECT_EQ(imported.exit_code, 0) << imported.out;
  EXPECT_THAT(imported.out, HasSubstr(absl::StrCat("-> ", out)));
  absl::StatusOr<v1::Level> level = formats::ReadLevelFile(out, 1 << 20);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_GT(level->shapes_size(), 0);
}

// A bad command line exits 2, an unknown flag too (Abseil's parser would
// exit 1).
TEST_F(CliE2eTest, EveryBadCommandLineExits2NamingTheFlag) {
  for (const char* args :
       {"--frobnicate levels", "--timeout=soon levels", "-x levels",
        "--json=maybe levels", "cast circle --from=0,5 --by=10,0",
        "overlap capsule --points=\"0,0 0,1\"", "levels --address"}) {
    Outcome outcome = Cli(args);
    EXPECT_EQ(outcome.exit_code, 2) << args << ": " << outcome.out;
    EXPECT_THAT(outcome.out, HasSubstr("--")) << args;
  }
  EXPECT_THAT(Cli("--frobnicate levels").out, HasSubstr("--frobnicate"));
  EXPECT_THAT(Cli("--timeout=soon levels").out, HasSubstr("--timeout"));
  EXPECT_THAT(Cli("cast circle --from=0,5 --by=10,0").out,
              HasSubstr("--radius"));
}

// --help prints each program's usage and its own flags: never Abseil's "No
// flags matched" nor its warning that SetProgramUsageMessage() was never
// called.
TEST(ToolHelpTest, HelpListsEachProgramsOwnFlags) {
  struct Program {
    const char* binary;
    const char* usage;
    const char* flag;
  };
  for (const Program& p :
       {Program{COLLIDE_CLI_BINARY, "collide-cli COMMAND", "--radius"},
        Program{COLLIDE_LOAD_BINARY, "Load-tests a collide server", "--rate"},
        Program{COLLIDE_SERVER_BINARY, "collision query service",
                "--listen"}}) {
    Outcome help = RunProgram(p.binary, "--help");
    EXPECT_THAT(help.out, HasSubstr(p.usage)) << p.binary;
    EXPECT_THAT(help.out, HasSubstr(absl::StrCat(p.flag, " ("))) << p.binary;
    EXPECT_THAT(help.out, Not(HasSubstr("No flags matched"))) << p.binary;
    EXPECT_THAT(help.out, Not(HasSubstr("never called"))) << p.binary;
  }
  // The client tools: help asked for is a success.
  EXPECT_EQ(RunProgram(COLLIDE_CLI_BINARY, "--help").exit_code, 0);
  EXPECT_EQ(RunProgram(COLLIDE_LOAD_BINARY, "--help").exit_code, 0);
}

// `levels` prints "levels/arena", which --level takes as well as "arena".
TEST_F(CliE2eTest, LevelsAreNamedByIdOrFullName) {
  Outcome levels = Cli("levels");
  ASSERT_THAT(levels.out, HasSubstr("levels/arena"));
  for (const char* level : {"arena", "levels/arena"}) {
    Outcome cast =
        Cli(absl::StrCat("--level=", level, " cast ray --from=0,0 --to=30,0"));
    EXPECT_EQ(cast.exit_code, 0) << level << ": " << cast.out;
    EXPECT_THAT(cast.out, HasSubstr("hit shape 10")) << level;
    Outcome described = Cli(absl::StrCat("describe ", level));
    EXPECT_EQ(described.exit_code, 0) << level << ": " << described.out;
    EXPECT_THAT(described.out, HasSubstr("levels/arena  version 1"));
  }
  ASSERT_EQ(Cli(absl::StrCat("put ", COLLIDE_EXAMPLE_LEVEL)).exit_code, 0);
  Outcome deleted = Cli("delete levels/dock");
  EXPECT_EQ(deleted.exit_code, 0) << deleted.out;
  EXPECT_THAT(deleted.out, HasSubstr("deleted levels/dock (was version "));
}

// `cast --json` prints camelCase names, as `get` does, and a miss prints
// "hits": [], not only "cast": {}.
TEST_F(CliE2eTest, JsonIsCamelCaseAndAMissIsExplicit) {
  Outcome hit = Cli("--json cast ray --from=0,0 --to=30,0");
  EXPECT_EQ(hit.exit_code, 0) << hit.out;
  EXPECT_THAT(hit.out, HasSubstr("\"shapeId\""));
  EXPECT_THAT(hit.out, HasSubstr("\"levelVersion\""));
  EXPECT_THAT(hit.out, Not(HasSubstr("shape_id")));
  Outcome got = Cli("get arena");
  EXPECT_THAT(got.out, HasSubstr("\"userData\""));
  Outcome described = Cli("--json describe arena");
  EXPECT_THAT(described.out, HasSubstr("\"shapeCount\""));

  // Straight up from the origin, out of the arena's walls' way: a miss.
  Outcome miss = Cli("--json cast ray --from=0,0 --by=0,0.5");
  EXPECT_EQ(miss.exit_code, 0) << miss.out;
  EXPECT_THAT(miss.out, HasSubstr("\"hits\": []"));
  v1::RunQueriesResponse parsed;
  ASSERT_TRUE(
      google::protobuf::util::JsonStringToMessage(miss.out, &parsed).ok())
      << miss.out;
  ASSERT_EQ(parsed.results_size(), 1);
  EXPECT_TRUE(parsed.results(0).has_cast());
  EXPECT_EQ(parsed.results(0).cast().hits_size(), 0);
  EXPECT_THAT(Cli("cast ray --from=0,0 --by=0,0.5").out, HasSubstr("  miss"));
}

}  // namespace
}  // namespace collide::client
