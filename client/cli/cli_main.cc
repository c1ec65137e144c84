// collide-cli: the sample client. Checks health, manages levels, runs casts
// given on the command line or from a file, draws a level and queries as an
// SVG picture, and converts Tiled maps into level files. Output is readable
// text by default and protobuf JSON with --json (lowerCamelCase field names,
// as in level files and `get`; query results print empty lists too, so a
// miss reads "hits": []).
//
// Levels are named by id ("arena") or full name ("levels/arena", as
// `levels` prints them). A command that reads a request file (run, patch,
// render --queries) acts on the level the file names; --level may repeat
// it but never override it (a disagreement exits 2 naming both), and fills
// in for a file that names none. `-o FILE` is short for --out=FILE; a file
// named "-" is standard input (run -, patch -, --queries=-) or standard
// output (-o -).
//
// Exit status (docs/tools.md): 0 done, 1 the server or a file said no (the
// message says why), 2 bad command line (an unknown flag, a value that does
// not parse, a missing argument: the message names it).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "client/cli/cast_args.h"
#include "client/cli/result_text.h"
#include "client/cli/visibility_args.h"
#include "client/lib/collide_client.h"
#include "client/lib/level_choice.h"
#include "client/lib/reflection_client.h"
#include "client/svg/svg_render.h"
#include "google/protobuf/util/json_util.h"
#include "proto/formats/file_io.h"
#include "proto/formats/level_file.h"
#include "proto/formats/tiled_import.h"
#include "proto/formats/tool_command_line.h"

ABSL_FLAG(std::string, address, "127.0.0.1:50051",
          "Server: host:port, a comma list of IP:port (round_robin), or a "
          "gRPC target such as dns:///name:port.");
ABSL_FLAG(absl::Duration, timeout, absl::Seconds(10),
          "Deadline of each unary call.");
ABSL_FLAG(std::vector<std::string>, metadata, {},
          "key:value sent as metadata with every call; repeat the flag for "
          "more, e.g. --metadata=\"authorization:Bearer TOKEN\" "
          "--metadata=x-tenant:blue. Keys are lower case.");
ABSL_FLAG(bool, tls, false,
          "Connect with TLS (implied by the other --tls_* flags); without "
          "--tls_ca_file the system's CAs verify the server.");
ABSL_FLAG(std::string, tls_ca_file, "",
          "PEM CA certificates that sign the server's certificate.");
ABSL_FLAG(std::string, tls_cert_file, "",
          "PEM client certificate, for servers that require one (mutual "
          "TLS); with --tls_key_file.");
ABSL_FLAG(std::string, tls_key_file, "", "PEM key of --tls_cert_file.");
ABSL_FLAG(std::string, tls_server_name, "",
          "Name the server's certificate must carry when it is not the host "
          "of --address.");
ABSL_FLAG(std::string, admin_address, "127.0.0.1:50052",
          "The server's admin listener (collide_server --admin_listen), where "
          "put and delete go; same forms as --address.");
ABSL_FLAG(std::string, admin_token_file, "",
          "File holding the admin bearer token sent with put and delete.");
ABSL_FLAG(bool, json, false, "Print protobuf JSON instead of text.");
ABSL_FLAG(std::optional<std::string>, level, std::nullopt,
          "Level to query or manage: its id (arena) or full name "
          "(levels/arena). A file given to run, patch or render --queries "
          "names its own level; --level must then name the same one or be "
          "left out. Default arena.");
ABSL_FLAG(std::string, out, "",
          "Output file (render, get, import-tiled), also -o FILE; "
          "default standard output.");
ABSL_FLAG(absl::Duration, wait, absl::ZeroDuration(),
          "health: keep asking until SERVING or this long has passed.");
// cast / overlap / closest
ABSL_FLAG(std::string, from, "", "Ray origin or circle center: x,y.");
ABSL_FLAG(std::string, to, "", "Where the shape's first point ends: x,y.");
ABSL_FLAG(std::string, by, "", "The translation: dx,dy (instead of --to).");
ABSL_FLAG(std::optional<double>, radius, std::nullopt,
          "Circle or capsule radius (required for them).");
ABSL_FLAG(std::string, points, "",
          "Polygon vertices or capsule axis: \"x,y x,y ...\".");
ABSL_FLAG(bool, all, false, "Report every hit, not only the first.");
ABSL_FLAG(std::optional<double>, max_fraction, std::nullopt,
          "Ignore contacts after this share of the translation.");
ABSL_FLAG(double, skin, 0, "Stop this far short of contact.");
ABSL_FLAG(bool, stop_at_penetration, false,
          "Count a start in contact as a hit even when moving away.");
ABSL_FLAG(std::optional<uint64_t>, mask, std::nullopt,
          "Only shapes whose category_bits share a bit with this.");
ABSL_FLAG(std::optional<uint64_t>, category, std::nullopt,
          "The query's own categories (QueryFilter.category_bits): only "
          "shapes whose mask_bits share a bit with these count.");
ABSL_FLAG(int32_t, group, 0,
          "The query's group (QueryFilter.group): shapes of the same "
          "positive group always count, of the same negative one never.");
ABSL_FLAG(std::string, ignore, "", "Shape ids to ignore: \"3,7\".");
ABSL_FLAG(std::optional<double>, angle, std::nullopt,
          "cast, move: radians the shape turns over the step (any sign).");
ABSL_FLAG(std::string, pivot, "",
          "cast, move: the centre of the turn, x,y (default: the shape's "
          "centroid).");
ABSL_FLAG(double, max_distance, -1, "closest: only within this distance.");
ABSL_FLAG(int, slide, 0,
          "move: collide-and-slide with at most this many casts (0: none).");
// visible / visibility-polygon
ABSL_FLAG(std::vector<std::string>, viewer, {},
          "visible: a viewer x,y[,range[,dirx,diry,half]] (an empty range is "
          "unlimited; half: the cone's half-angle in radians); repeat for "
          "more. visibility-polygon: the viewer x,y.");
ABSL_FLAG(std::vector<std::string>, target, {},
          "visible: a target x,y (a point) or x,y,r (a circle); repeat for "
          "more.");
ABSL_FLAG(bool, any_part, false,
          "visible: a circle target counts as seen when any part of it is "
          "(TARGET_RULE_ANY_PART), not only its centre.");
ABSL_FLAG(std::optional<double>, range, std::nullopt,
          "visibility-polygon: how far the viewer sees (required).");
ABSL_FLAG(double, max_arc_angle, 0,
          "visibility-polygon: the largest angle one chord of the range "
          "circle spans, radians (0: the server's default, 0.2).");
ABSL_FLAG(std::string, svg, "",
          "visible, visibility-polygon: also draw the level, the query and "
          "its answer into this SVG file.");
// put / import-tiled
ABSL_FLAG(std::string, id, "",
          "Level id for put / import-tiled (default: "
          "the id in the file, else the file name).");
ABSL_FLAG(bool, y_up, false,
          "import-tiled: flip y to point up (y = map height - y).");
// render
ABSL_FLAG(std::string, queries, "",
          "render: a file of queries (protobuf "
          "JSON of RunQueriesRequest) to run and draw.");
ABSL_FLAG(int, width, 900, "render: picture width in pixels.");
ABSL_FLAG(bool, labels, true, "render: label shapes and hits.");
ABSL_FLAG(std::string, y_axis, "level",
          "render: which way y points in the picture: up, down, or level (the "
          "level's own y_axis: down for a Tiled import, else up).");

namespace {

namespace v1 = collide::v1;
namespace cli = collide::client::cli;
using collide::client::CollideClient;

constexpr char kUsageHead[] = R"(collide-cli COMMAND [ARGS] [--flags]

Commands:
)";

constexpr char kUsageTail[] = R"(
LEVEL is an id (arena) or a full name (levels/arena). -o FILE is --out=FILE.
A file naming a level (run, patch, render --queries) wins over the default;
a --level naming another level than the file exits 2.
Common flags: --address=host:port (or ip:port,ip:port / dns:///name:port),
--level=ID, --json, --timeout=10s, --metadata=key:value (repeatable).
A FILE of "-" is standard input; -o - is standard output.
Exit status: 0 done, 1 refused by the server or a file, 2 bad command line.
Security: --tls (or any of --tls_ca_file=CA.pem, --tls_cert_file=C.pem
--tls_key_file=K.pem for mutual TLS, --tls_server_name=NAME); put and
delete go to --admin_address=127.0.0.1:50052 with --admin_token_file=F.)";

int Fail(const absl::Status& status) {
  std::fprintf(stderr, "collide-cli: %s\n", status.ToString().c_str());
  return 1;
}

int Usage(const std::string& message) {
  std::fprintf(stderr, "collide-cli: %s\n(collide-cli --help for usage)\n",
               message.c_str());
  return 2;
}

// Protobuf JSON with lowerCamelCase names, as level files and `get` have.
std::string Json(const google::protobuf::Message& message,
                 google::protobuf::util::JsonPrintOptions options = {}) {
  std::string json;
  options.add_whitespace = true;
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);
  return json;
}

// Query answers with every field, empty ones too: a cast that missed reads
// "cast": {"hits": []} rather than "cast": {}.
std::string ResultsJson(const v1::RunQueriesResponse& response) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  return Json(response, options);
}

absl::Status WriteOutput(const std::string& contents) {
  const std::string path = absl::GetFlag(FLAGS_out);
  if (path.empty() || path == "-") {
    std::fwrite(contents.data(), 1, contents.size(), stdout);
    return absl::OkStatus();
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << contents;
  file.close();
  if (!file) return absl::UnavailableError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

// The contents of `path`, or of standard input for "-".
absl::StatusOr<std::string> ReadText(const std::string& path) {
  if (path == "-") {
    std::stringstream contents;
    contents << std::cin.rdbuf();
    return contents.str();
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::stringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

// The connection the flags describe; reads --admin_token_file.
absl::StatusOr<collide::client::ClientOptions> OptionsFromFlags() {
  collide::client::ClientOptions options;
  options.target = absl::GetFlag(FLAGS_address);
  options.call_timeout = absl::GetFlag(FLAGS_timeout);
  options.tls = absl::GetFlag(FLAGS_tls);
  options.tls_ca_file = absl::GetFlag(FLAGS_tls_ca_file);
  options.tls_cert_file = absl::GetFlag(FLAGS_tls_cert_file);
  options.tls_key_file = absl::GetFlag(FLAGS_tls_key_file);
  options.tls_server_name = absl::GetFlag(FLAGS_tls_server_name);
  options.admin_target = absl::GetFlag(FLAGS_admin_address);
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> metadata =
      collide::client::ParseMetadata(absl::GetFlag(FLAGS_metadata));
  if (!metadata.ok()) return metadata.status();
  options.metadata = *std::move(metadata);
  if (const std::string path = absl::GetFlag(FLAGS_admin_token_file);
      !path.empty()) {
    absl::StatusOr<std::string> token = collide::formats::ReadTokenFile(path);
    if (!token.ok()) return token.status();
    options.admin_token = *std::move(token);
  }
  return options;
}

absl::StatusOr<std::unique_ptr<CollideClient>> Connect() {
  absl::StatusOr<collide::client::ClientOptions> options = OptionsFromFlags();
  if (!options.ok()) return options.status();
  return CollideClient::Connect(*options);
}

cli::CastArgs CastArgsFromFlags(const std::string& kind) {
  cli::CastArgs args;
  args.kind = kind;
  args.from = absl::GetFlag(FLAGS_from);
  args.to = absl::GetFlag(FLAGS_to);
  args.by = absl::GetFlag(FLAGS_by);
  args.radius = absl::GetFlag(FLAGS_radius);
  args.points = absl::GetFlag(FLAGS_points);
  args.all = absl::GetFlag(FLAGS_all);
  args.max_fraction = absl::GetFlag(FLAGS_max_fraction);
  args.skin = absl::GetFlag(FLAGS_skin);
  args.stop_at_penetration = absl::GetFlag(FLAGS_stop_at_penetration);
  args.mask = absl::GetFlag(FLAGS_mask);
  args.category = absl::GetFlag(FLAGS_category);
  args.group = absl::GetFlag(FLAGS_group);
  args.ignore = absl::GetFlag(FLAGS_ignore);
  args.angle = absl::GetFlag(FLAGS_angle);
  args.pivot = absl::GetFlag(FLAGS_pivot);
  return args;
}

// What a command gets: the connected client (null for a command that needs
// no server) and its arguments after the command's name.
struct Invocation {
  CollideClient* client;
  absl::Span<char* const> args;
};

// The level of a command that reads no request file: --level, else arena.
std::string FlagLevel() {
  return absl::GetFlag(FLAGS_level).value_or(collide::client::kDefaultLevelId);
}

// The level id: the command's argument when given, else FlagLevel().
std::string LevelArg(const Invocation& call) {
  return call.args.empty() ? FlagLevel() : call.args[0];
}

int HealthCommand(const Invocation& call) {
  CollideClient& client = *call.client;
  // The server as a whole (""), or the one service named.
  const std::string service = call.args.empty() ? "" : call.args[0];
  // Bounded: each attempt has the call deadline, and the loop ends once
  // --wait has passed.
  const absl::Time give_up = absl::Now() + absl::GetFlag(FLAGS_wait);
  absl::Status status;
  while (true) {
    status = client.CheckHealth(service);
    if (status.ok() || absl::Now() >= give_up) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (!status.ok()) return Fail(status);
  std::printf("%s%s%s: SERVING\n", client.options().target.c_str(),
              service.empty() ? "" : " ", service.c_str());
  return 0;
}

// Prints a batch's answers, one query after the other.
int PrintResults(absl::Span<const v1::Query> queries,
                 const v1::RunQueriesResponse& response) {
  if (absl::GetFlag(FLAGS_json)) {
    std::printf("%s", ResultsJson(response).c_str());
    return 0;
  }
  for (int i = 0; i < response.results_size(); ++i) {
    const v1::Query& query =
        i < static_cast<int>(queries.size()) ? queries[i] : v1::Query();
    std::printf("%s", cli::ResultText(query, response.results(i)).c_str());
  }
  std::printf("(level version %lld)\n",
              static_cast<long long>(response.level_version()));
  return 0;
}

int RunOne(CollideClient& client, absl::StatusOr<v1::Query> query) {
  if (!query.ok()) return Usage(std::string(query.status().message()));
  query->set_request_id(1);
  absl::StatusOr<v1::RunQueriesResponse> response =
      client.RunQueries(FlagLevel(), absl::MakeConstSpan(&*query, 1));
  if (!response.ok()) return Fail(response.status());
  PrintResults(absl::MakeConstSpan(&*query, 1), *response);
  return response->results(0).status().code() == 0 ? 0 : 1;
}

// A RunQueriesRequest from a JSON file, as written (its level may be
// empty); queries without request ids are numbered 1, 2, ...
absl::StatusOr<v1::RunQueriesRequest> ReadBatch(const std::string& path) {
  absl::StatusOr<std::string> text = ReadText(path);
  if (!text.ok()) return text.status();
  v1::RunQueriesRequest request;
  const auto parsed = google::protobuf::util::JsonStringToMessage(
      *text, &request, google::protobuf::util::JsonParseOptions());
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a RunQueriesRequest in protobuf JSON: ",
                     parsed.message().as_string()));
  }
  for (int i = 0; i < request.queries_size(); ++i) {
    if (request.queries(i).request_id() == 0) {
      request.mutable_queries(i)->set_request_id(i + 1);
    }
  }
  return request;
}

// The level a command reading the request file `path` acts on: see
// ChooseLevel. A file and a --level that disagree are a bad command line.
absl::StatusOr<std::string> FileLevel(const std::string& path,
                                      const std::string& file_level) {
  return collide::client::ChooseLevel(path, file_level,
                                      absl::GetFlag(FLAGS_level));
}

int RunCommand(const Invocation& call) {
  const std::string path = call.args[0];
  absl::StatusOr<v1::RunQueriesRequest> request = ReadBatch(path);
  if (!request.ok()) return Fail(request.status());
  absl::StatusOr<std::string> level = FileLevel(path, request->level());
  if (!level.ok()) return Usage(std::string(level.status().message()));
  const std::vector<v1::Query> queries(request->queries().begin(),
                                       request->queries().end());
  absl::StatusOr<v1::RunQueriesResponse> response =
      call.client->RunQueries(*level, queries);
  if (!response.ok()) return Fail(response.status());
  return PrintResults(queries, *response);
}

int RenderCommand(const Invocation& call) {
  collide::client::RenderOptions options;
  const std::string y_axis = absl::GetFlag(FLAGS_y_axis);
  if (y_axis == "up") {
    options.y_axis = v1::Y_AXIS_UP;
  } else if (y_axis == "down") {
    options.y_axis = v1::Y_AXIS_DOWN;
  } else if (y_axis != "level") {
    return Usage(absl::StrCat("--y_axis must be up, down or level, got \"",
                              y_axis, "\""));
  }
  // The level drawn is the one the queries file names, if any.
  std::string level_id = FlagLevel();
  std::optional<v1::RunQueriesRequest> request;
  if (const std::string path = absl::GetFlag(FLAGS_queries); !path.empty()) {
    absl::StatusOr<v1::RunQueriesRequest> read = ReadBatch(path);
    if (!read.ok()) return Fail(read.status());
    absl::StatusOr<std::string> chosen = FileLevel(path, read->level());
    if (!chosen.ok()) return Usage(std::string(chosen.status().message()));
    level_id = *chosen;
    request = *std::move(read);
  }
  absl::StatusOr<v1::GetLevelResponse> level = call.client->GetLevel(level_id);
  if (!level.ok()) return Fail(level.status());
  std::vector<collide::client::RenderedQuery> drawn;
  if (request.has_value()) {
    const std::vector<v1::Query> queries(request->queries().begin(),
                                         request->queries().end());
    absl::StatusOr<v1::RunQueriesResponse> response =
        call.client->RunQueries(level_id, queries);
    if (!response.ok()) return Fail(response.status());
    for (int i = 0; i < request->queries_size(); ++i) {
      drawn.push_back({request->queries(i), response->results(i)});
    }
  }
  options.width_px = absl::GetFlag(FLAGS_width);
  options.labels = absl::GetFlag(FLAGS_labels);
  absl::StatusOr<std::string> svg =
      collide::client::RenderSvg(level->content(), drawn, options);
  if (!svg.ok()) return Usage(std::string(svg.status().message()));
  const absl::Status written = WriteOutput(*svg);
  return written.ok() ? 0 : Fail(written);
}

// A level from a file: the format from its name and contents (a Tiled map
// too); the id from --id, else the file's, else the file name.
absl::StatusOr<v1::Level> ReadLevel(const std::string& path) {
  absl::StatusOr<v1::Level> level =
      collide::formats::ReadLevelFile(path, int64_t{1} << 30);
  if (!level.ok()) return level.status();
  if (!absl::GetFlag(FLAGS_id).empty()) {
    level->set_id(absl::GetFlag(FLAGS_id));
  } else if (level->id().empty()) {
    std::string stem = path.substr(path.find_last_of('/') + 1);
    level->set_id(stem.substr(0, stem.find('.')));
  }
  return level;
}

int PutCommand(const Invocation& call) {
  absl::StatusOr<v1::Level> level = ReadLevel(call.args[0]);
  if (!level.ok()) return Fail(level.status());
  const std::string id = level->id();
  absl::StatusOr<v1::PutLevelResponse> put =
      call.client->PutLevel(id, *std::move(level));
  if (!put.ok()) return Fail(put.status());
  if (absl::GetFlag(FLAGS_json)) {
    std::printf("%s", Json(*put).c_str());
  } else {
    std::printf("%s %s\n", put->created() ? "created" : "replaced",
                cli::SummaryText(put->summary()).c_str());
  }
  return 0;
}

// PatchLevel from a JSON PatchLevelRequest, on the level the file names
// (else --level, else arena; a file and a --level that disagree exit 2).
int PatchCommand(const Invocation& call) {
  const std::string path = call.args[0];
  absl::StatusOr<std::string> text = ReadText(path);
  if (!text.ok()) return Fail(text.status());
  v1::PatchLevelRequest patch;
  if (const auto parsed =
          google::protobuf::util::JsonStringToMessage(*text, &patch);
      !parsed.ok()) {
    return Fail(absl::InvalidArgumentError(
        absl::StrCat(path, ": not a PatchLevelRequest: ", parsed.ToString())));
  }
  absl::StatusOr<std::string> level = FileLevel(path, patch.level());
  if (!level.ok()) return Usage(std::string(level.status().message()));
  absl::StatusOr<v1::PatchLevelResponse> patched =
      call.client->PatchLevel(*level, std::move(patch));
  if (!patched.ok()) return Fail(patched.status());
  if (absl::GetFlag(FLAGS_json)) {
    std::printf("%s", Json(*patched).c_str());
  } else {
    std::printf("patched %s\n", cli::SummaryText(patched->summary()).c_str());
  }
  return 0;
}

int ImportTiledCommand(const Invocation& call) {
  const std::string path = call.args[0];
  collide::formats::TiledImportOptions options;
  options.level_id = absl::GetFlag(FLAGS_id);
  if (absl::GetFlag(FLAGS_y_up)) {
    options.y_axis = collide::formats::TiledYAxis::kUp;
  }
  absl::StatusOr<v1::Level> level =
      collide::formats::ReadTiledMapFile(path, options);
  if (!level.ok()) return Fail(level.status());
  const std::string out = absl::GetFlag(FLAGS_out);
  if (absl::EndsWith(out, ".binpb") || absl::EndsWith(out, ".pb")) {
    const absl::Status written = collide::formats::WriteLevelFile(out, *level);
    if (!written.ok()) return Fail(written);
  } else {
    absl::StatusOr<std::string> json = collide::formats::LevelToJson(*level);
    if (!json.ok()) return Fail(json.status());
    const absl::Status written = WriteOutput(*json);
    if (!written.ok()) return Fail(written);
  }
  if (!out.empty() && out != "-") {
    std::printf("level %s: %d shapes -> %s\n", level->id().c_str(),
                level->shapes_size(), out.c_str());
  }
  return 0;
}

int LevelsCommand(const Invocation& call) {
  absl::StatusOr<v1::ListLevelsResponse> levels = call.client->ListLevels();
  if (!levels.ok()) return Fail(levels.status());
  const bool json = absl::GetFlag(FLAGS_json);
  for (const v1::LevelSummary& level : levels->levels()) {
    std::printf("%s\n",
                json ? Json(level).c_str() : cli::SummaryText(level).c_str());
  }
  // On stderr, so scripts reading the level list are not confused.
  for (const v1::SkippedLevelFile& skipped : levels->skipped_files()) {
    std::fprintf(stderr, "skipped level file %s (%s): %s\n",
                 skipped.file().c_str(), skipped.level().c_str(),
                 skipped.error().c_str());
  }
  return 0;
}

// A fully qualified proto name ("collide.v1.CollisionService"): level ids
// have no dots, so a dot names a symbol for server reflection.
bool IsSymbol(absl::string_view name) {
  return absl::StrContains(name, '.') && !absl::StartsWith(name, "levels/");
}

// grpcurl's list: the services, or with SERVICE its methods, through
// server reflection (grpc.reflection.v1, else v1alpha).
int ListCommand(const Invocation& call) {
  if (call.args.size() > 1) return Usage("list takes at most one SERVICE");
  absl::StatusOr<collide::client::ClientOptions> options = OptionsFromFlags();
  if (!options.ok()) return Fail(options.status());
  absl::StatusOr<collide::client::ReflectionClient> reflection =
      collide::client::ReflectionClient::Connect(*options);
  if (!reflection.ok()) return Fail(reflection.status());
  absl::StatusOr<std::vector<std::string>> names =
      call.args.empty() ? reflection->ListServices()
                        : reflection->ListMethods(call.args[0]);
  if (!names.ok()) return Fail(names.status());
  for (const std::string& name : *names) std::printf("%s\n", name.c_str());
  return 0;
}

// grpcurl's describe: a service, method, message, enum or field in .proto
// syntax, through server reflection.
int DescribeSymbol(absl::string_view symbol) {
  absl::StatusOr<collide::client::ClientOptions> options = OptionsFromFlags();
  if (!options.ok()) return Fail(options.status());
  absl::StatusOr<collide::client::ReflectionClient> reflection =
      collide::client::ReflectionClient::Connect(*options);
  if (!reflection.ok()) return Fail(reflection.status());
  absl::StatusOr<std::string> text = reflection->Describe(symbol);
  if (!text.ok()) return Fail(text.status());
  std::printf("%s", text->c_str());
  return 0;
}

int DescribeCommand(const Invocation& call) {
  if (!call.args.empty() && IsSymbol(call.args[0])) {
    return DescribeSymbol(call.args[0]);
  }
  absl::StatusOr<v1::LevelSummary> level =
      call.client->DescribeLevel(LevelArg(call));
  if (!level.ok()) return Fail(level.status());
  std::printf("%s\n", absl::GetFlag(FLAGS_json)
                          ? Json(*level).c_str()
                          : cli::SummaryText(*level).c_str());
  return 0;
}

int GetCommand(const Invocation& call) {
  absl::StatusOr<v1::GetLevelResponse> level =
      call.client->GetLevel(LevelArg(call));
  if (!level.ok()) return Fail(level.status());
  absl::StatusOr<std::string> text =
      collide::formats::LevelToJson(level->content());
  if (!text.ok()) return Fail(text.status());
  const absl::Status written = WriteOutput(*text);
  return written.ok() ? 0 : Fail(written);
}

int DeleteCommand(const Invocation& call) {
  absl::StatusOr<v1::DeleteLevelResponse> deleted =
      call.client->DeleteLevel(call.args[0]);
  if (!deleted.ok()) return Fail(deleted.status());
  std::printf("deleted %s (was version %lld)\n",
              collide::client::LevelName(call.args[0]).c_str(),
              static_cast<long long>(deleted->deleted_version()));
  return 0;
}

int CastCommand(const Invocation& call) {
  return RunOne(*call.client,
                cli::MakeCastQuery(CastArgsFromFlags(call.args[0])));
}

int OverlapCommand(const Invocation& call) {
  return RunOne(*call.client,
                cli::MakeOverlapQuery(CastArgsFromFlags(call.args[0])));
}

int ClosestCommand(const Invocation& call) {
  return RunOne(*call.client,
                cli::MakeClosestPointQuery(CastArgsFromFlags(""),
                                           absl::GetFlag(FLAGS_max_distance)));
}

int MoveCommand(const Invocation& call) {
  return RunOne(*call.client,
                cli::MakeMoveQuery(CastArgsFromFlags(call.args[0]),
                                   absl::GetFlag(FLAGS_slide)));
}

// RunOne, then with --svg the level, the query and its answer drawn into
// that file.
int RunAndDraw(CollideClient& client, absl::StatusOr<v1::Query> query) {
  if (!query.ok()) return Usage(std::string(query.status().message()));
  query->set_request_id(1);
  const std::string level_id = FlagLevel();
  absl::StatusOr<v1::RunQueriesResponse> response =
      client.RunQueries(level_id, absl::MakeConstSpan(&*query, 1));
  if (!response.ok()) return Fail(response.status());
  PrintResults(absl::MakeConstSpan(&*query, 1), *response);
  const int status = response->results(0).status().code() == 0 ? 0 : 1;
  const std::string path = absl::GetFlag(FLAGS_svg);
  if (path.empty()) return status;
  absl::StatusOr<v1::GetLevelResponse> level = client.GetLevel(level_id);
  if (!level.ok()) return Fail(level.status());
  collide::client::RenderOptions options;
  options.width_px = absl::GetFlag(FLAGS_width);
  options.labels = absl::GetFlag(FLAGS_labels);
  const collide::client::RenderedQuery drawn[] = {
      {*query, response->results(0)}};
  absl::StatusOr<std::string> svg =
      collide::client::RenderSvg(level->content(), drawn, options);
  if (!svg.ok()) return Usage(std::string(svg.status().message()));
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << *svg;
  file.close();
  if (!file)
    return Fail(absl::UnavailableError(absl::StrCat("cannot write ", path)));
  return status;
}

int VisibleCommand(const Invocation& call) {
  return RunAndDraw(
      *call.client,
      cli::MakeVisibilityQuery(
          absl::GetFlag(FLAGS_viewer), absl::GetFlag(FLAGS_target),
          CastArgsFromFlags(""),
          absl::GetFlag(FLAGS_any_part) ? v1::TARGET_RULE_ANY_PART
                                        : v1::TARGET_RULE_UNSPECIFIED));
}

int VisibilityPolygonCommand(const Invocation& call) {
  return RunAndDraw(
      *call.client,
      cli::MakeVisibilityPolygonQuery(
          absl::GetFlag(FLAGS_viewer), absl::GetFlag(FLAGS_range),
          absl::GetFlag(FLAGS_max_arc_angle), CastArgsFromFlags("")));
}

// One row of collide-cli's command table: Dispatch finds the row by name,
// checks the argument count and runs it.
struct Command {
  absl::string_view name;
  // Its lines in --help, in the order of the table.
  absl::string_view usage;
  // For a command that takes exactly one argument, the message when it gets
  // another count; empty for one whose arguments are optional.
  absl::string_view one_argument;
  // False for a command that needs no server: its arguments are checked and
  // it runs without connecting. Otherwise the connection (which checks the
  // address and TLS flags) comes first, then the argument count.
  bool needs_server;
  int (*run)(const Invocation& call);
};

constexpr Command kCommands[] = {
    {"health",
     "  health [SERVICE]            is the server (or SERVICE, e.g.\n"
     "                              collide.v1.CollisionService) SERVING?\n"
     "                              (--wait=5s to retry)\n",
     "", true, HealthCommand},
    {"levels", "  levels                      list the levels\n", "", true,
     LevelsCommand},
    {"describe",
     "  describe [LEVEL]            one level's summary\n"
     "  describe SYMBOL             a service, method or message the server\n"
     "                              serves, e.g. collide.v1.CollisionService\n"
     "                              (server reflection, as grpcurl describe)\n",
     "", true, DescribeCommand},
    {"list",
     "  list [SERVICE]              the services served, or SERVICE's "
     "methods\n"
     "                              (server reflection, as grpcurl list)\n",
     "", true, ListCommand},
    {"get",
     "  get [LEVEL] [-o F]          a level's content as protobuf JSON\n", "",
     true, GetCommand},
    {"put",
     R"(  put FILE [--id=ID]          create or replace a level from a file
                              (protobuf JSON, binary, or a Tiled .tmj map)
                              on the admin listener (--admin_address)
)",
     "put takes one level FILE", true, PutCommand},
    {"delete",
     "  delete LEVEL                delete a level (on --admin_address)\n",
     "delete takes one LEVEL id", true, DeleteCommand},
    {"patch",
     R"(  patch FILE [--level=ID]     add, replace and remove shapes of a level in
                              one step (on --admin_address): FILE is a
                              PatchLevelRequest in protobuf JSON, e.g.
                              {"level": "levels/dock", "upserts": [{"id": "7",
                              "circle": {"radius": 1}}], "removeIds": ["3"],
                              "expectedContentHash": "..."}; the level is
                              the file's, else --level
)",
     "patch takes one patch FILE", true, PatchCommand},
    {"cast",
     R"(  cast ray|circle|polygon|capsule   one cast against --level, e.g.
      cast ray --from=0,0 --to=30,0
      cast circle --from=0,5 --radius=0.5 --by=10,0 --skin=0.01
      cast polygon --points="0,0 1,0 0,1" --by=5,5 --all
      cast capsule --points="0,0 0,1" --radius=0.3 --by=4,0
      cast capsule --points="0,0 2,0" --radius=0.1 --by=0,0 --angle=3.14159
                   --pivot=0,0      (a sword swinging a half turn about the
                                    hand; --angle and --pivot also for move)
)",
     "cast takes one shape kind", true, CastCommand},
    {"overlap",
     "  overlap circle|polygon|capsule    shapes touching a shape at rest\n",
     "overlap takes one shape kind", true, OverlapCommand},
    {"closest",
     "  closest --from=x,y [--max_distance=D]   the nearest level point\n", "",
     true, ClosestCommand},
    {"move",
     R"(  move circle|capsule|polygon  validate a claimed move, e.g.
      move circle --from=0,5 --radius=0.5 --by=10,0 --skin=0.01 --slide=4
                              (shots and pair queries: put them in a file
                              for run; see client/examples/validation.json)
)",
     "move takes one mover kind", true, MoveCommand},
    {"visible",
     R"(  visible --viewer=x,y[,range[,dirx,diry,half]] ... --target=x,y[,r] ...
                              which targets each viewer sees past --level's
                              occluders (a filter: --mask, --category,
                              --group, --ignore; --any_part: a circle is
                              seen when any part of it is), e.g.
      visible --viewer=0,0,30,1,0,0.8 --viewer=5,5 --target=10,0
              --target=3,4,0.5 --svg=sight.svg
)",
     "", true, VisibleCommand},
    {"visibility-polygon",
     R"(  visibility-polygon --viewer=x,y --range=R [--max_arc_angle=A]
                              the region a viewer sees within R, vertices
                              counter-clockwise (--svg=F.svg draws it)
)",
     "", true, VisibilityPolygonCommand},
    {"run",
     "  run FILE                    a batch from a file (RunQueriesRequest "
     "JSON)\n"
     "                              on the file's level, else --level\n",
     "run takes one FILE of queries", true, RunCommand},
    {"render",
     R"(  render [--queries=F] [--y_axis=up|down] --out=F.svg
                              draw --level and the queries' answers
)",
     "", true, RenderCommand},
    {"import-tiled",
     R"(  import-tiled MAP.tmj -o LEVEL.json [--id] [--y_up]
                              convert a Tiled map into a level file
)",
     "import-tiled takes one MAP file", false, ImportTiledCommand},
};

// --help's text: the head, every command's lines, the common flags.
std::string UsageText() {
  std::string usage = kUsageHead;
  for (const Command& command : kCommands) {
    absl::StrAppend(&usage, command.usage);
  }
  absl::StrAppend(&usage, kUsageTail);
  return usage;
}

const Command* FindCommand(absl::string_view name) {
  for (const Command& command : kCommands) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

// Runs the command args[1] names with the arguments after it.
int Dispatch(const std::vector<char*>& args) {
  if (args.size() < 2) return Usage("no command given");
  const std::string name = args[1];
  const Command* command = FindCommand(name);
  const Invocation offline = {nullptr, absl::MakeConstSpan(args).subspan(2)};
  const bool arity_ok = command == nullptr || command->one_argument.empty() ||
                        offline.args.size() == 1;
  if (command != nullptr && !command->needs_server) {
    if (!arity_ok) return Usage(std::string(command->one_argument));
    return command->run(offline);
  }
  absl::StatusOr<std::unique_ptr<CollideClient>> client = Connect();
  if (!client.ok()) {
    // A flag that makes no sense is a bad command line; a file it names
    // that cannot be read is a refusal like any other.
    if (absl::IsInvalidArgument(client.status())) {
      return Usage(absl::StrCat("--", client.status().message()));
    }
    return Fail(absl::Status(client.status().code(),
                             absl::StrCat("--", client.status().message())));
  }
  if (command == nullptr) {
    return Usage(absl::StrCat("unknown command \"", name, "\""));
  }
  if (!arity_ok) return Usage(std::string(command->one_argument));
  return command->run({client->get(), offline.args});
}

// argv with `-o FILE` (and -o=FILE) spelled --out=FILE, the only short
// option, which Abseil's flags do not have; `storage` holds the new text.
std::vector<char*> ExpandShortOptions(int argc, char** argv,
                                      std::vector<std::string>& storage) {
  storage.reserve(static_cast<size_t>(argc));
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    if (arg == "--") {
      args.insert(args.end(), argv + i, argv + argc);
      break;
    }
    if (arg == "-o" && i + 1 < argc) {
      storage.push_back(absl::StrCat("--out=", argv[++i]));
    } else if (absl::StartsWith(arg, "-o=")) {
      storage.push_back(absl::StrCat("--out=", arg.substr(3)));
    } else {
      args.push_back(argv[i]);
      continue;
    }
    args.push_back(storage.back().data());
  }
  return args;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string usage = UsageText();
  collide::tools::SetToolUsage(usage, __FILE__, "collide-cli");
  std::vector<std::string> storage;
  std::vector<char*> args = ExpandShortOptions(argc, argv, storage);
  // Every --metadata counts (Abseil keeps only a flag's last value).
  absl::SetFlag(&FLAGS_metadata,
                collide::tools::TakeRepeatedFlag(args, "metadata"));
  // A viewer or target holds commas, which a list flag would split.
  absl::SetFlag(&FLAGS_viewer,
                collide::tools::TakeRepeatedFlag(args, "viewer"));
  absl::SetFlag(&FLAGS_target,
                collide::tools::TakeRepeatedFlag(args, "target"));
  // Checked first: Abseil's parser exits 1 on a bad flag; a bad command line
  // exits 2.
  if (absl::Status flags = collide::tools::CheckFlags(args); !flags.ok()) {
    return Usage(std::string(flags.message()));
  }
  return Dispatch(collide::tools::ParseToolCommandLine(args));
}
