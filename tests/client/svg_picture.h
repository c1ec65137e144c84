// Test helpers for the SVG renderer's tests: a picture parsed with
// tinyxml2 and looked up by group id, class and title; the points of its
// elements; and the 20 x 10 test view whose pixel coordinates follow from
// the contract alone: x_px = (x - view.lower.x) * scale, y_px =
// (view.upper.y - y) * scale (y flipped so up is up), scale = width_px /
// view width.
#ifndef COLLIDE_TESTS_CLIENT_SVG_PICTURE_H_
#define COLLIDE_TESTS_CLIENT_SVG_PICTURE_H_

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "client/svg/svg_render.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/v1/geometry.pb.h"
#include "gtest/gtest.h"
#include "tinyxml2.h"

namespace collide::client::svg_test {

using tinyxml2::XMLDocument;
using tinyxml2::XMLElement;

// Coordinates are written to 1/100 pixel.
inline constexpr double kPixelTolerance = 0.01;
// Curves cut into chords stray at most 0.25 px; points on them are checked
// with some room.
inline constexpr double kCurveTolerance = 0.3;

struct Point {
  double x;
  double y;
};

inline double Distance(Point a, Point b) {
  return std::hypot(a.x - b.x, a.y - b.y);
}

inline double DistanceToSegment(Point a, Point b, Point p) {
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const double length_squared = dx * dx + dy * dy;
  double t = length_squared > 0.0
                 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length_squared
                 : 0.0;
  t = std::min(1.0, std::max(0.0, t));
  return Distance(p, {a.x + t * dx, a.y + t * dy});
}

inline void Set(v1::Vec2* out, double x, double y) {
  out->set_x(x);
  out->set_y(y);
}

inline v1::Aabb View(double lower_x, double lower_y, double upper_x,
                     double upper_y) {
  v1::Aabb view;
  Set(view.mutable_lower(), lower_x, lower_y);
  Set(view.mutable_upper(), upper_x, upper_y);
  return view;
}

// The 20 x 10 view used where coordinates are checked: 400 px wide, so 20
// px per unit and 200 px high.
inline RenderOptions TestOptions() {
  RenderOptions options;
  options.width_px = 400;
  options.view = View(0.0, 0.0, 20.0, 10.0);
  return options;
}
inline constexpr double kScale = 20.0;
inline Point Px(double x, double y) {
  return {x * kScale, (10.0 - y) * kScale};
}

inline std::string Render(const v1::Level& level,
                          const std::vector<RenderedQuery>& queries,
                          const RenderOptions& options = TestOptions()) {
  absl::StatusOr<std::string> svg = RenderSvg(level, queries, options);
  EXPECT_TRUE(svg.ok()) << svg.status();
  return svg.ok() ? *svg : "";
}

// A parsed picture with lookups by group id, class and title.
class Picture {
 public:
  explicit Picture(const std::string& svg) {
    parsed_ = doc_.Parse(svg.c_str()) == tinyxml2::XML_SUCCESS;
  }
  bool parsed() const { return parsed_; }
  const XMLElement* root() const { return doc_.RootElement(); }

  const XMLElement* Group(absl::string_view id) const {
    return Find(root(), [&](const XMLElement* e) {
      const char* value = e->Attribute("id");
      return value != nullptr && id == value;
    });
  }

  // The drawing elements directly in group `id` (titles excluded).
  std::vector<const XMLElement*> InGroup(absl::string_view id) const {
    std::vector<const XMLElement*> out;
    const XMLElement* group = Group(id);
    if (group == nullptr) return out;
    for (const XMLElement* e = group->FirstChildElement(); e != nullptr;
         e = e->NextSiblingElement()) {
      out.push_back(e);
    }
    return out;
  }

  std::vector<const XMLElement*> WithClass(absl::string_view group,
                                           absl::string_view css_class) const {
    std::vector<const XMLElement*> out;
    for (const XMLElement* e : InGroup(group)) {
      if (HasClass(e, css_class)) out.push_back(e);
    }
    return out;
  }

  // Every text element's content, in document order.
  std::vector<std::string> Texts() const {
    std::vector<std::string> out;
    Visit(root(), [&](const XMLElement* e) {
      if (absl::string_view(e->Name()) == "text" && e->GetText() != nullptr &&
          !HasClass(e, "halo")) {
        out.push_back(e->GetText());
      }
    });
    return out;
  }

  static bool HasClass(const XMLElement* e, absl::string_view css_class) {
    const char* value = e->Attribute("class");
    if (value == nullptr) return false;
    for (absl::string_view token : absl::StrSplit(value, ' ')) {
      if (token == css_class) return true;
    }
    return false;
  }

  static std::string Title(const XMLElement* e) {
    const XMLElement* title = e->FirstChildElement("title");
    return title != nullptr && title->GetText() != nullptr ? title->GetText()
                                                           : "";
  }

  template <typename F>
  static void Visit(const XMLElement* e, F&& f) {
    f(e);
    for (const XMLElement* child = e->FirstChildElement(); child != nullptr;
         child = child->NextSiblingElement()) {
      Visit(child, f);
    }
  }

 private:
  template <typename F>
  static const XMLElement* Find(const XMLElement* e, F&& matches) {
    if (e == nullptr) return nullptr;
    if (matches(e)) return e;
    for (const XMLElement* child = e->FirstChildElement(); child != nullptr;
         child = child->NextSiblingElement()) {
      if (const XMLElement* found = Find(child, matches)) return found;
    }
    return nullptr;
  }

  XMLDocument doc_;
  bool parsed_ = false;
};

inline const XMLElement* WithTitle(
    const std::vector<const XMLElement*>& elements, absl::string_view title) {
  for (const XMLElement* e : elements) {
    if (Picture::Title(e) == title) return e;
  }
  return nullptr;
}

inline double Number(const XMLElement* e, const char* attribute) {
  const char* value = e->Attribute(attribute);
  EXPECT_NE(value, nullptr) << attribute;
  return value != nullptr ? std::strtod(value, nullptr)
                          : std::numeric_limits<double>::quiet_NaN();
}

// "x1,y1 x2,y2 ..." (a points attribute).
inline std::vector<Point> PointsOf(const XMLElement* e) {
  std::vector<Point> points;
  for (absl::string_view pair :
       absl::StrSplit(e->Attribute("points"), ' ', absl::SkipEmpty())) {
    const std::vector<std::string> xy = absl::StrSplit(pair, ',');
    EXPECT_EQ(xy.size(), 2u) << pair;
    if (xy.size() == 2) {
      points.push_back({std::strtod(xy[0].c_str(), nullptr),
                        std::strtod(xy[1].c_str(), nullptr)});
    }
  }
  return points;
}

// The end points of a path's commands (M, L, A and Z as this renderer
// writes them: absolute, comma or space separated).
inline std::vector<Point> PathPoints(const XMLElement* e) {
  std::string d = e->Attribute("d");
  for (char& c : d) {
    if (c == ',') c = ' ';
  }
  std::vector<Point> points;
  const char* p = d.c_str();
  char command = 0;
  while (*p != '\0') {
    while (*p == ' ') ++p;
    if (*p == '\0') break;
    if (std::isalpha(static_cast<unsigned char>(*p))) {
      command = *p++;
      if (command == 'Z') continue;
    }
    const int arguments = command == 'A' ? 7 : 2;
    double values[7];
    for (int i = 0; i < arguments; ++i) {
      char* end = nullptr;
      values[i] = std::strtod(p, &end);
      EXPECT_NE(end, p) << "bad path data: " << d;
      if (end == p) return points;
      p = end;
    }
    points.push_back({values[arguments - 2], values[arguments - 1]});
  }
  return points;
}

inline void ExpectNear(Point actual, Point expected, double tolerance,
                       absl::string_view what) {
  EXPECT_NEAR(actual.x, expected.x, tolerance) << what;
  EXPECT_NEAR(actual.y, expected.y, tolerance) << what;
}

// Whether `points` and `expected` hold the same points, in any order.
inline void ExpectSamePoints(std::vector<Point> points,
                             std::vector<Point> expected,
                             absl::string_view what) {
  ASSERT_EQ(points.size(), expected.size()) << what;
  for (const Point e : expected) {
    bool found = false;
    for (const Point p : points) {
      if (Distance(p, e) <= 2 * kPixelTolerance) found = true;
    }
    EXPECT_TRUE(found) << what << ": no point near (" << e.x << ", " << e.y
                       << ")";
  }
}

}  // namespace collide::client::svg_test

#endif  // COLLIDE_TESTS_CLIENT_SVG_PICTURE_H_
