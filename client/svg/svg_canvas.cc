#include "client/svg/svg_canvas.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "client/svg/svg_geometry.h"
#include "client/svg/svg_layer.h"
#include "client/svg/svg_legend.h"
#include "client/svg/svg_scene.h"
#include "client/svg/svg_style.h"
#include "collide/vec2.h"

namespace collide::client::svg_internal {

std::vector<Vec2> Projection::ToPicture(absl::Span<const Vec2> world) const {
  std::vector<Vec2> picture;
  picture.reserve(world.size());
  for (const Vec2 p : world) picture.push_back(ToPicture(p));
  return picture;
}

const char* LayerId(Layer layer) {
  switch (layer) {
    case Layer::kGrid:
      return "grid";
    case Layer::kLevel:
      return "level";
    case Layer::kOverlapped:
      return "overlapped";
    case Layer::kSwept:
      return "swept";
    case Layer::kOutlines:
      return "outlines";
    case Layer::kHits:
      return "hits";
    case Layer::kMarkers:
      return "markers";
    case Layer::kLabels:
      return "labels";
  }
  return "";
}

Canvas::Canvas(const Frame& frame, bool labels)
    : frame_(frame), projection_(frame), labels_(labels) {
  // Shapes are cut to the picture plus a margin as large as the picture:
  // their cut edges stay out of sight, and every coordinate stays within a
  // few times the picture's size.
  const double margin = std::max(frame.width, frame.height);
  const Aabb clip = {{-margin, -margin},
                     {frame.width + margin, frame.height + margin}};
  layers_.assign(kLayerCount, SvgLayer(clip, kCurveTolerance));
}

void Canvas::Shape(Layer layer, const WorldShape& shape,
                   absl::string_view attributes, absl::string_view title) {
  SvgLayer& out = this->layer(layer);
  switch (shape.kind) {
    case WorldShape::Kind::kChain:
      out.Chain(projection_.ToPicture(shape.points), shape.closed, attributes,
                title);
      break;
    case WorldShape::Kind::kPolygon:
      out.Polygon(projection_.ToPicture(shape.points), attributes, title);
      break;
    case WorldShape::Kind::kRounded:
      out.Rounded(ConvexHull(projection_.ToPicture(shape.points)),
                  projection_.ToPixels(shape.radius), attributes, title);
      break;
  }
}

Aabb Canvas::PixelBounds(const WorldShape& shape) const {
  return BoundsOf(projection_.ToPicture(shape.points),
                  projection_.ToPixels(shape.radius));
}

Aabb Canvas::Motion(const WorldShape& start, Vec2 translation,
                    absl::string_view colour, absl::string_view title,
                    const MotionStyle& style) {
  SvgLayer& outlines = layer(Layer::kOutlines);
  const WorldShape end = Translated(start, translation);
  const std::vector<Vec2> start_hull =
      ConvexHull(projection_.ToPicture(start.points));
  const std::vector<Vec2> end_hull =
      ConvexHull(projection_.ToPicture(end.points));
  const double radius = projection_.ToPixels(start.radius);

  if (style.as_ray) {
    const Vec2 origin = projection_.ToPicture(start.points[0]);
    const Vec2 finish = projection_.ToPicture(end.points[0]);
    const Vec2 stop =
        style.solid_until >= 1.0
            ? finish
            : projection_.ToPicture(start.points[0] +
                                    style.solid_until * translation);
    const Vec2 solid[2] = {origin, stop};
    outlines.Chain(solid, /*closed=*/false, Attributes("ray", "", colour),
                   title);
    if (stop != finish) {
      const Vec2 rest[2] = {stop, finish};
      outlines.Chain(rest, /*closed=*/false, Attributes("end", "", colour), "");
      Use(kRoleEnd);
    }
    const Vec2 direction = Normalize(finish - origin);
    if (direction != Vec2{}) {
      outlines.Arrow(finish - direction, finish, kArrowHead,
                     Attributes("ray", "", colour));
    }
    outlines.Dot(origin, kPointRadius, Attributes("start", "#ffffff", colour),
                 "");
    return BoundsOf(start_hull, radius);
  }

  if (!style.swept_class.empty()) {
    std::vector<Vec2> both = start_hull;
    both.insert(both.end(), end_hull.begin(), end_hull.end());
    layer(Layer::kSwept)
        .Rounded(ConvexHull(both), radius,
                 Attributes(style.swept_class, colour, colour), "");
    Use(kRoleSwept);
  }
  outlines.Rounded(start_hull, radius, Attributes("start", "", colour), title);
  outlines.Rounded(end_hull, radius, Attributes("end", "", colour), "");
  Use(kRoleEnd);
  const Vec2 from = Centroid(start_hull);
  const Vec2 to = Centroid(end_hull);
  if (Length(to - from) > 2.0 * kArrowHead) {
    outlines.Arrow(from, to, kArrowHead, Attributes("path", "", colour));
  }
  return BoundsOf(start_hull, radius);
}

void Canvas::Contact(Vec2 point, Vec2 normal, absl::string_view colour,
                     absl::string_view label, absl::string_view label_colour,
                     absl::string_view title) {
  const Vec2 contact = projection_.ToPicture(point);
  const Vec2 direction = projection_.Direction(normal);
  const Vec2 tip = contact + kNormalLength * direction;
  SvgLayer& markers = layer(Layer::kMarkers);
  markers.Arrow(contact, tip, kArrowHead, Attributes("normal", "", colour));
  markers.Dot(contact, kContactRadius, Attributes("contact", colour, ""),
              title);
  if (!labels_ || label.empty()) return;
  // Beyond the arrow's tip, on the side it points to.
  const Vec2 at =
      tip + Vec2{6.0 * direction.x, direction.y > 0.3 ? 10.0 : -3.0};
  const char* anchor = direction.x > 0.3    ? "start"
                       : direction.x < -0.3 ? "end"
                                            : "middle";
  layer(Layer::kLabels)
      .Label(at, label, "label",
             absl::StrCat(" fill=\"", label_colour, "\" text-anchor=\"", anchor,
                          "\""));
}

void Canvas::TagLabel(absl::string_view text, const Aabb& bounds,
                      absl::string_view colour) {
  if (!labels_) return;
  layer(Layer::kLabels)
      .Label(Vec2{bounds.upper.x + 3.0, bounds.lower.y - 3.0}, text, "label",
             absl::StrCat(" fill=\"", colour, "\""));
}

std::string Canvas::Groups() const {
  std::string svg;
  for (int i = 0; i < kLayerCount; ++i) {
    absl::StrAppend(&svg, "<g id=\"", LayerId(static_cast<Layer>(i)), "\">\n",
                    layers_[i].svg(), "</g>\n");
  }
  return svg;
}

Vec2 Centroid(absl::Span<const Vec2> points) {
  Vec2 sum;
  for (const Vec2 p : points) sum = sum + p;
  return (1.0 / static_cast<double>(points.size())) * sum;
}

}  // namespace collide::client::svg_internal
