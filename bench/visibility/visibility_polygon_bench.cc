// collide_visibility_polygon_bench: ns per VisibilityPolygon on the scenes
// of docs/performance.md, ranges 20 and 100, viewers drawn uniform in a
// square window of the world (default 200 x 200 around its centre),
// skipping points inside or on a shape, from seed 0x9017. Prints thread
// CPU time per polygon (median of the passes) and the mean vertex count.
// With --svg=PATH it instead writes an SVG of the window of one scene with
// a few viewers' polygons (docs/images/visibility-polygons.svg).
//
// Usage: collide_visibility_polygon_bench [--scene=S1|S2|S3|all]
//          [--viewers=N] [--passes=N] [--window=W] [--svg=PATH]
//          [--svg-range=R]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "bench_args.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/visibility_polygon.h"
#include "scenes.h"

namespace collide_bench {
namespace {

using collide::Vec2;

std::vector<Vec2> FreePoints(const collide::Level& level, int n, uint64_t seed,
                             Vec2 centre, double window) {
  SplitMix64 rng(seed);
  std::vector<Vec2> points;
  while (static_cast<int>(points.size()) < n) {
    const double x =
        rng.Uniform(centre.x - 0.5 * window, centre.x + 0.5 * window);
    const Vec2 p{x,
                 rng.Uniform(centre.y - 0.5 * window, centre.y + 0.5 * window)};
    if (!collide::ClosestPoint(p, level, 0.0).has_value()) points.push_back(p);
  }
  return points;
}

double CpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) +
         1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Row {
  std::string scene;
  double range = 0.0;
  double ns = 0.0;
  double vertices = 0.0;
  int not_ok = 0;
};

Row Run(const Scene& scene, const collide::Level& level, double range,
        int viewers, int passes, double window) {
  const std::vector<Vec2> points =
      FreePoints(level, viewers, 0x9017, {500, 500}, window);
  collide::VisibilityPolygonScratch scratch;
  std::vector<collide::VisibilityPolygonVertex> out(1 << 15);
  Row row{scene.name, range};
  std::vector<double> times;
  int64_t vertices = 0;
  for (int pass = 0; pass < passes; ++pass) {
    vertices = 0;
    row.not_ok = 0;
    const double start = CpuSeconds();
    for (const Vec2 v : points) {
      const auto result = collide::VisibilityPolygon(
          level, v, {.range = range}, absl::MakeSpan(out), scratch);
      vertices += result.vertex_count;
      row.not_ok += result.status != collide::VisibilityPolygonStatus::kOk;
    }
    times.push_back((CpuSeconds() - start) * 1e9 / viewers);
  }
  std::sort(times.begin(), times.end());
  row.ns = times[times.size() / 2];
  row.vertices = static_cast<double>(vertices) / viewers;
  return row;
}

// The window of `scene` around `centre` with the polygons of a few viewers,
// y up (the SVG's y axis flipped).
void WriteSvg(const Scene& scene, const collide::Level& level,
              const std::string& path, double range) {
  const Vec2 centre{500, 500};
  const double half = 2.2 * range;
  const double lo_x = centre.x - half, hi_y = centre.y + half;
  const double size = 2 * half;
  const double scale = 800.0 / size;
  const auto sx = [&](double x) { return (x - lo_x) * scale; };
  const auto sy = [&](double y) { return (hi_y - y) * scale; };
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    std::perror(path.c_str());
    std::exit(1);
  }
  std::fprintf(f,
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" "
               "height=\"800\" viewBox=\"0 0 800 800\">\n"
               "<rect width=\"800\" height=\"800\" fill=\"#202428\"/>\n");
  const char* colours[] = {"#f6c344", "#4fc3f7", "#81c784", "#f06292"};
  const std::vector<Vec2> viewers =
      FreePoints(level, 4, 0x5160, centre, 1.2 * range);
  collide::VisibilityPolygonScratch scratch;
  std::vector<collide::VisibilityPolygonVertex> out(1 << 15);
  for (size_t i = 0; i < viewers.size(); ++i) {
    const auto result = collide::VisibilityPolygon(
        level, viewers[i], {.range = range}, absl::MakeSpan(out), scratch);
    std::fprintf(f,
                 "<polygon fill=\"%s\" fill-opacity=\"0.28\" stroke=\"%s\" "
                 "stroke-width=\"1\" points=\"",
                 colours[i % 4], colours[i % 4]);
    for (int k = 0; k < result.vertex_count; ++k) {
      std::fprintf(f, "%.2f,%.2f ", sx(out[k].point.x), sy(out[k].point.y));
    }
    std::fprintf(f, "\"/>\n");
  }
  // The shapes over the polygons, then the viewers.
  for (size_t i = 0; i < scene.size(); ++i) {
    if (scene.kind == ShapeKind::kSegment) {
      const collide::Segment& s = scene.segments[i];
      if (std::max(std::abs(s.p1.x - centre.x), std::abs(s.p1.y - centre.y)) >
          half + 3) {
        continue;
      }
      std::fprintf(f,
                   "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                   "stroke=\"#e0e0e0\" stroke-width=\"2\"/>\n",
                   sx(s.p1.x), sy(s.p1.y), sx(s.p2.x), sy(s.p2.y));
    } else {
      const collide::Aabb& b = scene.boxes[i];
      if (b.upper.x < lo_x || b.lower.x > lo_x + size ||
          b.upper.y < hi_y - size || b.lower.y > hi_y) {
        continue;
      }
      std::fprintf(f,
                   "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                   "fill=\"#9e9e9e\"/>\n",
                   sx(b.lower.x), sy(b.upper.y),
                   (b.upper.x - b.lower.x) * scale,
                   (b.upper.y - b.lower.y) * scale);
    }
  }
  for (size_t i = 0; i < viewers.size(); ++i) {
    std::fprintf(f,
                 "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"5\" fill=\"%s\" "
                 "stroke=\"#000\"/>\n",
                 sx(viewers[i].x), sy(viewers[i].y), colours[i % 4]);
  }
  std::fprintf(
      f,
      "<text x=\"10\" y=\"790\" fill=\"#e0e0e0\" font-family=\"sans-serif\" "
      "font-size=\"14\">%s: visibility polygons of 4 viewers, range "
      "%g, level units %g x %g</text>\n</svg>\n",
      scene.name.c_str(), range, size, size);
  std::fclose(f);
}

int Main(int argc, char** argv) {
  std::string which = "all";
  std::string svg;
  int viewers = 256;
  int passes = 5;
  double window = 200.0;
  double svg_range = 30.0;
  ArgParser args(argc, argv,
                 "[--scene=S1|S2|S3|all] [--viewers=N] [--passes=N] "
                 "[--window=W] [--svg=PATH] [--svg-range=R]");
  args.Choice("scene", &which, {"S1", "S2", "S3", "all"});
  args.Int("viewers", &viewers, 1, 1 << 20);
  args.Int("passes", &passes, 1, 1000);
  args.Double("window", &window, 1.0);
  args.Text("svg", &svg);
  args.Double("svg-range", &svg_range, 1.0);
  args.Finish();
  std::vector<Row> rows;
  for (const char* name : {"S1", "S2", "S3"}) {
    if (which != "all" && which != name) continue;
    const Scene scene = std::string(name) == "S1"   ? MakeS1()
                        : std::string(name) == "S2" ? MakeS2()
                                                    : MakeS3();
    const collide::Level level = SceneLevel(scene);
    if (!svg.empty()) {
      WriteSvg(scene, level, svg, svg_range);
      return 0;
    }
    for (double range : {20.0, 100.0}) {
      rows.push_back(Run(scene, level, range, viewers, passes, window));
      const Row& r = rows.back();
      std::printf(
          "[visibility-polygon] %s range %g: %.0f ns/polygon, %.1f "
          "vertices, %d not ok\n",
          name, range, r.ns, r.vertices, r.not_ok);
      std::fflush(stdout);
    }
  }
  std::printf(
      "\n| scene | range | ns per polygon | vertices per polygon |\n"
      "|---|---|---|---|\n");
  for (const Row& r : rows) {
    std::printf("| %s | %g | %.0f | %.1f |\n", r.scene.c_str(), r.range, r.ns,
                r.vertices);
  }
  return 0;
}

}  // namespace
}  // namespace collide_bench

int main(int argc, char** argv) { return collide_bench::Main(argc, argv); }
