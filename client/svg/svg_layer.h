// Writing SVG 1.1 elements in picture coordinates (pixels, y down) for the
// renderer (svg_render.h): one SvgLayer per drawing layer, each element cut
// to the layer's clip rectangle (see svg_geometry.h for why), numbers
// written compactly and text escaped.
#ifndef COLLIDE_CLIENT_SVG_SVG_LAYER_H_
#define COLLIDE_CLIENT_SVG_SVG_LAYER_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "collide/vec2.h"

namespace collide::client::svg_internal {

// `text` made safe as XML character data or a quoted attribute value: & < >
// " ' become entities, bytes that are not valid UTF-8 and control
// characters XML 1.0 forbids become U+FFFD, and tab, newline and carriage
// return become spaces (so they survive attribute normalisation).
std::string EscapeXml(absl::string_view text);

// A pixel coordinate rounded to 1/100 pixel, without trailing zeros or an
// exponent ("12.5", "-3", "0"); non-finite values never reach it.
std::string FormatPixels(double value);

// A world-unit number for people to read: %.6g ("0.25", "1e+60").
std::string FormatNumber(double value);

// A number for a label in the drawing: %.4g ("0.4414"). Four significant
// digits tell hits apart at a glance; titles and the legend carry six.
std::string FormatShort(double value);

// Appends elements to a string. Every drawing method takes `attributes`:
// extra attribute text, already escaped, starting with a space (e.g.
// ` class="start" stroke="#1971c2"`), and most take a `title`, written
// escaped as a <title> child (a tooltip in browsers) unless empty. Shapes
// entirely outside the clip rectangle, or with a non-finite coordinate, are
// left out; shapes partly outside are cut to it.
class SvgLayer {
 public:
  // `clip`: the rectangle every written coordinate stays within (pixels).
  // `tolerance`: how far a curve cut into chords may stray (pixels).
  SvgLayer(const Aabb& clip, double tolerance);

  // A closed polygon, any simple outline: <polygon>.
  void Polygon(absl::Span<const Vec2> points, absl::string_view attributes,
               absl::string_view title);

  // A chain of segments: <line> for one segment, <polyline> or (closed)
  // <polygon> for more, <path> when cutting splits it into pieces.
  void Chain(absl::Span<const Vec2> points, bool closed,
             absl::string_view attributes, absl::string_view title);

  // The points within `radius` of the convex hull `hull` (as ConvexHull
  // returns): a <circle> for one point (at least 1 pixel across, so points
  // stay visible), a <line> or <polygon> when radius is under 1/100 pixel,
  // else a <path> of straight edges and arcs; a <polygon> of its visible
  // part when cut.
  void Rounded(absl::Span<const Vec2> hull, double radius,
               absl::string_view attributes, absl::string_view title);

  // A marker of fixed size at `center`: <circle>. Left out when the centre
  // is outside the clip rectangle.
  void Dot(Vec2 center, double radius, absl::string_view attributes,
           absl::string_view title);

  // An arrow from `from` to `to` with an open head of `head` pixels: one
  // <path>, cut like a chain.
  void Arrow(Vec2 from, Vec2 to, double head, absl::string_view attributes);

  // Text at `at` (the baseline's start, or as `attributes` anchor it), drawn
  // over a white halo so it reads on top of any drawing: two <text>
  // elements of class `css_class`, the first also of class "halo". Left out
  // when `at` is outside the clip rectangle. `attributes` holds no class.
  void Label(Vec2 at, absl::string_view text, absl::string_view css_class,
             absl::string_view attributes);

  // Raw SVG text (group tags, definitions), written as is.
  void Append(absl::string_view svg);

  const std::string& svg() const { return svg_; }

 private:
  void OpenElement(absl::string_view name, absl::string_view geometry,
                   absl::string_view attributes, absl::string_view title);
  void WritePieces(absl::Span<const std::vector<Vec2>> pieces,
                   absl::string_view attributes, absl::string_view title);

  Aabb clip_;
  double tolerance_;
  std::string svg_;
};

}  // namespace collide::client::svg_internal

#endif  // COLLIDE_CLIENT_SVG_SVG_LAYER_H_
