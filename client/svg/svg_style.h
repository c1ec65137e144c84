// The look of the SVG renderer's pictures (svg_render.h), shared by the
// drawing and its legend: the style sheet, the colours and the sizes of
// markers, all in pixels.
#ifndef COLLIDE_CLIENT_SVG_SVG_STYLE_H_
#define COLLIDE_CLIENT_SVG_SVG_STYLE_H_

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace collide::client::svg_internal {

// How far a curve cut into chords may stray (pixels): invisible.
inline constexpr double kCurveTolerance = 0.25;

// Marker sizes (pixels).
inline constexpr double kNormalLength = 22.0;
inline constexpr double kArrowHead = 6.0;
inline constexpr double kContactRadius = 3.5;
inline constexpr double kPointRadius = 3.0;

// One colour per query, in turn; chosen to stay apart from the level's
// greys, the contact red and the initial-overlap amber.
inline constexpr const char* kPalette[] = {"#1971c2", "#2f9e44", "#7048e8",
                                           "#0c8599", "#ae3ec9", "#66a80f",
                                           "#3b5bdb", "#099268"};
inline constexpr const char* kMissColour = "#868e96";
inline constexpr const char* kContactColour = "#e03131";
inline constexpr const char* kInitialOverlapColour = "#f08c00";

// The style sheet, by the role of each element (its class). Strokes are in
// pixels because every coordinate in the file is (the renderer maps world
// to picture coordinates itself), so widths stay constant at any zoom
// without SVG 2's vector-effect. Colours that vary per query are
// presentation attributes on the elements, so these rules never set them
// (CSS would win).
inline constexpr absl::string_view kStyle = R"css(
.solid { fill: #dee2e6; stroke: #495057; stroke-width: 1.5px; }
.line { fill: none; stroke: #343a40; stroke-width: 2.5px; stroke-linecap: round; stroke-linejoin: round; }
.one-sided { stroke-dasharray: 7, 3; }
.front { fill: none; stroke: #343a40; stroke-width: 1.5px; stroke-linecap: round; }
.solid.filtered { fill: #d0ebff; stroke: #1971c2; }
.line.filtered, .front.filtered { stroke: #1971c2; }
.overlapped { fill-opacity: 0.3; stroke-width: 2.5px; }
.overlapped.chain { fill: none; stroke-width: 4px; stroke-linecap: round; stroke-linejoin: round; }
.grid { stroke: #f1f3f5; stroke-width: 1px; }
.axis { stroke: #ced4da; stroke-width: 1px; }
.swept { fill-opacity: 0.1; stroke-opacity: 0.35; stroke-width: 1px; }
.path { fill: none; stroke-opacity: 0.6; stroke-width: 1px; }
.ray { fill: none; stroke-width: 2px; stroke-linecap: round; }
.start { fill: none; stroke-width: 1.5px; }
.end { fill: none; stroke-width: 1.5px; stroke-dasharray: 5, 4; }
.toi { fill-opacity: 0.15; stroke-width: 2.5px; }
.probe { fill-opacity: 0.15; stroke-width: 2px; }
.contact { stroke: #ffffff; stroke-width: 1.5px; }
.normal { fill: none; stroke-width: 2px; stroke-linecap: round; stroke-linejoin: round; }
.closest { fill: none; stroke-width: 1.5px; }
.search { fill: none; stroke-width: 1px; stroke-dasharray: 2, 3; }
.swept.faint { fill-opacity: 0.05; stroke-opacity: 0.2; }
.safe { fill: none; stroke-width: 2.5px; }
.final { fill-opacity: 0.3; stroke-width: 2.5px; }
.slide { fill: none; stroke-width: 2px; stroke-linecap: round; stroke-linejoin: round; }
.exit { fill: none; stroke-width: 2px; stroke-linecap: round; stroke-linejoin: round; }
.viewer { stroke: #ffffff; stroke-width: 1.5px; }
.range { fill: none; stroke-width: 1px; stroke-dasharray: 2, 3; }
.cone { fill: none; stroke-width: 1.5px; stroke-dasharray: 6, 3; }
.sight { fill: none; stroke-width: 1px; stroke-opacity: 0.45; }
.seen { fill-opacity: 0.8; stroke-width: 1.5px; }
.unseen { fill: #ffffff; stroke-width: 1.5px; }
.visible { fill-opacity: 0.12; stroke-width: 1.5px; stroke-linejoin: round; }
.legend-band { fill: #f8f9fa; stroke: #dee2e6; stroke-width: 1px; }
text { font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; font-size: 11px; }
text.shape-id, text.tick { font-size: 9px; fill: #868e96; }
text.note { fill: #495057; }
text.halo { fill: #ffffff; stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round; }
)css";

// Attribute text for SvgLayer: the class, and the fill and stroke colours
// when not empty.
inline std::string Attributes(absl::string_view css_class,
                              absl::string_view fill,
                              absl::string_view stroke) {
  std::string out = absl::StrCat(" class=\"", css_class, "\"");
  if (!fill.empty()) absl::StrAppend(&out, " fill=\"", fill, "\"");
  if (!stroke.empty()) absl::StrAppend(&out, " stroke=\"", stroke, "\"");
  return out;
}

}  // namespace collide::client::svg_internal

#endif  // COLLIDE_CLIENT_SVG_SVG_STYLE_H_
