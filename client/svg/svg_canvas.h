// The picture the SVG renderer (svg_render.h) draws into: its frame and
// world-to-picture mapping, its layers from bottom to top, the kinds of mark
// it uses (for the legend) and its notes, with the drawing steps several
// kinds of query share: shapes in world coordinates, a shape's motion over a
// step, contact points with their normals, and labels.
#ifndef COLLIDE_CLIENT_SVG_SVG_CANVAS_H_
#define COLLIDE_CLIENT_SVG_SVG_CANVAS_H_

#include <bitset>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "client/svg/svg_layer.h"
#include "client/svg/svg_legend.h"
#include "client/svg/svg_scene.h"
#include "collide/vec2.h"

namespace collide::client::svg_internal {

// The picture's frame: the part of the world shown, its scale and its size.
struct Frame {
  Aabb view;            // level units
  double scale = 1.0;   // pixels per level unit
  int width = 0;        // pixels
  int height = 0;       // pixels
  bool y_down = false;  // world y grows downwards, as in the picture
};

// World to picture coordinates. SVG's y points down; world y points up
// unless frame.y_down, so y is flipped here, in double precision, rather
// than with an SVG transform: renderers apply transforms in single precision
// (a level at 1e30 would collapse), and a flipping transform would mirror
// the text.
class Projection {
 public:
  explicit Projection(const Frame& frame)
      : left_(frame.view.lower.x),
        top_(frame.y_down ? frame.view.lower.y : frame.view.upper.y),
        scale_(frame.scale),
        y_sign_(frame.y_down ? 1.0 : -1.0) {}

  Vec2 ToPicture(Vec2 world) const {
    return {(world.x - left_) * scale_, y_sign_ * (world.y - top_) * scale_};
  }
  std::vector<Vec2> ToPicture(absl::Span<const Vec2> world) const;
  // A direction (not a position): only the flip applies; unit length, or
  // zero for a zero direction.
  Vec2 Direction(Vec2 world) const {
    return Normalize({world.x, y_sign_ * world.y});
  }
  double ToPixels(double length) const { return length * scale_; }

 private:
  double left_;
  double top_;
  double scale_;
  double y_sign_;  // picture y per world y: -1 flipped, +1 not
};

// The drawing layers, bottom to top. Each becomes a <g> whose id is
// LayerId(layer), so tests and style sheets can find what is in it.
enum class Layer {
  kGrid,        // grid lines and axes
  kLevel,       // the level's shapes
  kOverlapped,  // level shapes an overlap query found
  kSwept,       // regions swept during a step
  kOutlines,    // shapes at the start and end of a step, rays, paths
  kHits,        // shapes where something happened (a hit, a safe position)
  kMarkers,     // contact points and normals
  kLabels,      // text
};
inline constexpr int kLayerCount = 8;
const char* LayerId(Layer layer);

// How Canvas::Motion draws a motion.
struct MotionStyle {
  // A point moving (a ray, a bullet): a line, solid up to `solid_until` (a
  // share of the translation) and dashed beyond, with an arrowhead at the
  // end and a dot at the start. Otherwise the start outline, the dashed
  // end outline and an arrow along the path of the shape's centre.
  bool as_ray = false;
  double solid_until = 1.0;
  // The swept region's classes (e.g. "swept faint"); empty: none drawn.
  absl::string_view swept_class = "swept";
};

class Canvas {
 public:
  // `labels`: whether text other than the legend is drawn.
  Canvas(const Frame& frame, bool labels);

  const Frame& frame() const { return frame_; }
  const Projection& projection() const { return projection_; }
  bool labels() const { return labels_; }
  SvgLayer& layer(Layer layer) { return layers_[static_cast<int>(layer)]; }

  // A kind of mark the picture uses, so the legend explains it.
  void Use(Role role) { roles_.set(role); }
  const std::bitset<kRoleCount>& roles() const { return roles_; }
  // A line for the legend: something not drawn, an error.
  void Note(std::string note) { notes_.push_back(std::move(note)); }
  const std::vector<std::string>& notes() const { return notes_; }

  // `shape` (world coordinates) on `layer`, as SvgLayer draws it.
  void Shape(Layer layer, const WorldShape& shape, absl::string_view attributes,
             absl::string_view title);
  // The smallest box holding `shape` in the picture (pixels).
  Aabb PixelBounds(const WorldShape& shape) const;

  // `start` moving by `translation` (world), in `colour`, drawn as `style`
  // says; `title` goes on the start (the ray's solid part). Marks the
  // swept and end roles it uses; the caller marks the start's. Returns the
  // start's bounds in the picture (pixels), for a label.
  Aabb Motion(const WorldShape& start, Vec2 translation,
              absl::string_view colour, absl::string_view title,
              const MotionStyle& style);

  // A contact point (a dot in `colour`) and its normal (world, from the
  // obstacle towards the mover; an arrow of fixed length), and `label`
  // beyond the arrow's tip in `label_colour` when labels are on and it is
  // not empty.
  void Contact(Vec2 point, Vec2 normal, absl::string_view colour,
               absl::string_view label, absl::string_view label_colour,
               absl::string_view title);

  // `text` in `colour` just above and right of `bounds` (pixels), when
  // labels are on: a query's tag next to its start.
  void TagLabel(absl::string_view text, const Aabb& bounds,
                absl::string_view colour);

  // The layers, bottom to top, as <g> elements.
  std::string Groups() const;

 private:
  Frame frame_;
  Projection projection_;
  bool labels_;
  std::vector<SvgLayer> layers_;
  std::bitset<kRoleCount> roles_;
  std::vector<std::string> notes_;
};

// The mean of `points` (not empty): a circle's centre, a capsule's middle,
// a polygon's vertex centroid. Used as the point a path arrow follows.
Vec2 Centroid(absl::Span<const Vec2> points);

}  // namespace collide::client::svg_internal

#endif  // COLLIDE_CLIENT_SVG_SVG_CANVAS_H_
