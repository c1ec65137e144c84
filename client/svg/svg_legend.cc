#include "client/svg/svg_legend.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "client/svg/svg_layer.h"
#include "client/svg/svg_style.h"
#include "collide/vec2.h"

namespace collide::client::svg_internal {
namespace {

constexpr double kPadding = 8.0;
constexpr double kRow = 18.0;
constexpr double kSwatchWidth = 22.0;
// A generous average advance of the legend's 11 px sans-serif text, used
// to lay entries out without measuring fonts.
constexpr double kCharWidth = 6.4;
constexpr size_t kMaxNotes = 8;

constexpr const char* kRoleNames[kRoleCount] = {"solid shape",
                                                "segment, polyline",
                                                "one-sided (front ticked)",
                                                "own mask or group (blue)",
                                                "swept region",
                                                "start",
                                                "end (dashed)",
                                                "at hit (fraction t)",
                                                "contact, normal",
                                                "initial overlap",
                                                "miss, error, no result",
                                                "overlapped shape",
                                                "closest point",
                                                "max distance",
                                                "safe position",
                                                "slide path",
                                                "slide end",
                                                "way out, pose after it",
                                                "viewer, range, cone",
                                                "line of sight",
                                                "target seen",
                                                "target not seen",
                                                "visible region"};

// One entry's sample, drawn with the picture's own classes and colours,
// centred vertically on `y` in the kSwatchWidth pixels from `x`.
void DrawSwatch(SvgLayer& legend, Role role, double x, double y) {
  const char* colour = kPalette[0];
  const Vec2 box[4] = {{x + 2.0, y - 5.0},
                       {x + 20.0, y - 5.0},
                       {x + 20.0, y + 5.0},
                       {x + 2.0, y + 5.0}};
  const Vec2 line[2] = {{x + 2.0, y}, {x + 20.0, y}};
  const Vec2 dot[1] = {{x + 0.5 * kSwatchWidth, y}};
  switch (role) {
    case kRoleSolid:
      legend.Polygon(box, " class=\"solid\"", "");
      break;
    case kRoleLine:
      legend.Chain(line, false, " class=\"line\"", "");
      break;
    case kRoleOneSided: {
      legend.Chain(line, false, " class=\"line one-sided\"", "");
      const Vec2 tick[2] = {{x + 11.0, y}, {x + 11.0, y - 5.0}};
      legend.Chain(tick, false, " class=\"front\"", "");
      break;
    }
    case kRoleFiltered:
      legend.Polygon(box, " class=\"solid filtered\"", "");
      break;
    case kRoleSwept:
      legend.Polygon(box, Attributes("swept", colour, colour), "");
      break;
    case kRoleStart:
      legend.Rounded(dot, 5.0, Attributes("start", "", colour), "");
      break;
    case kRoleEnd:
      legend.Rounded(dot, 5.0, Attributes("end", "", colour), "");
      break;
    case kRoleToi:
      legend.Rounded(dot, 5.0, Attributes("toi", colour, colour), "");
      break;
    case kRoleContact:
    case kRoleInitialOverlap: {
      const char* marker =
          role == kRoleContact ? kContactColour : kInitialOverlapColour;
      legend.Arrow({x + 4.0, y + 3.0}, {x + 20.0, y - 5.0}, 4.0,
                   Attributes("normal", "", marker));
      legend.Dot({x + 4.0, y + 3.0}, kContactRadius,
                 Attributes("contact", marker, ""), "");
      break;
    }
    case kRoleMiss:
      legend.Rounded(dot, 5.0, Attributes("start", "", kMissColour), "");
      break;
    case kRoleOverlapped:
      legend.Polygon(box, Attributes("overlapped", colour, colour), "");
      break;
    case kRoleClosest:
      legend.Chain(line, false, Attributes("closest", "", colour), "");
      legend.Dot(line[1], kContactRadius,
                 Attributes("contact", kContactColour, ""), "");
      break;
    case kRoleSearch:
      legend.Chain(line, false, Attributes("search", "", colour), "");
      break;
    case kRoleSafe:
      legend.Rounded(dot, 5.0, Attributes("safe", "", colour), "");
      break;
    case kRoleSlide: {
      const Vec2 path[3] = {
          {x + 2.0, y + 4.0}, {x + 11.0, y - 4.0}, {x + 20.0, y - 4.0}};
      legend.Chain(path, false, Attributes("slide", "", colour), "");
      legend.Arrow(path[1], path[2], 4.0, Attributes("slide", "", colour));
      break;
    }
    case kRoleSlideEnd:
      legend.Rounded(dot, 5.0, Attributes("final", colour, colour), "");
      break;
    case kRoleExit: {
      const Vec2 pose[1] = {{x + 16.0, y}};
      legend.Arrow({x + 1.0, y}, {x + 12.0, y}, 4.0,
                   Attributes("exit", "", colour));
      legend.Rounded(pose, 4.0, Attributes("safe", "", colour), "");
      break;
    }
    case kRoleViewer: {
      const Vec2 cone[3] = {
          {x + 20.0, y - 5.0}, {x + 4.0, y}, {x + 20.0, y + 5.0}};
      legend.Chain(cone, false, Attributes("cone", "", colour), "");
      legend.Dot({x + 4.0, y}, kPointRadius + 1.0,
                 Attributes("viewer", colour, ""), "");
      break;
    }
    case kRoleSight:
      legend.Chain(line, false, Attributes("sight", "", colour), "");
      break;
    case kRoleSeen:
      legend.Dot(dot[0], kPointRadius, Attributes("seen", colour, colour), "");
      break;
    case kRoleUnseen:
      legend.Dot(dot[0], kPointRadius, Attributes("unseen", "", kMissColour),
                 "");
      break;
    case kRoleVisible:
      legend.Polygon(box, Attributes("visible", colour, colour), "");
      break;
    case kRoleCount:
      break;
  }
}

}  // namespace

std::string Shortened(absl::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t end = max_bytes > 3 ? max_bytes - 3 : 0;
  // Back to the start of a UTF-8 sequence (not a continuation byte).
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
    --end;
  }
  return absl::StrCat(text.substr(0, end), "...");
}

Legend DrawLegend(const LegendContent& content, int width, double top) {
  // Laid out first, the band behind it added once its height is known.
  SvgLayer legend({{0.0, top}, {static_cast<double>(width), top + 1e6}},
                  kCurveTolerance);
  const size_t max_bytes =
      static_cast<size_t>(std::max(8.0, (width - 2.0 * kPadding) / kCharWidth));
  double y = top + kPadding + 0.5 * kRow;  // the current row's middle
  auto text_line = [&](absl::string_view text) {
    legend.Label({kPadding, y + 4.0}, Shortened(text, max_bytes), "note", "");
    y += kRow;
  };

  text_line(content.summary);
  double x = kPadding;
  bool row_used = false;
  for (int role = 0; role < kRoleCount; ++role) {
    if (!content.roles.test(role)) continue;
    const double entry =
        kSwatchWidth + 4.0 +
        kCharWidth * static_cast<double>(std::strlen(kRoleNames[role])) + 14.0;
    if (row_used && x + entry > width - kPadding) {
      x = kPadding;
      y += kRow;
    }
    DrawSwatch(legend, static_cast<Role>(role), x, y);
    legend.Label({x + kSwatchWidth + 4.0, y + 4.0}, kRoleNames[role], "note",
                 "");
    x += entry;
    row_used = true;
  }
  if (row_used) y += kRow;
  const size_t shown = std::min(content.notes.size(), kMaxNotes);
  for (size_t i = 0; i < shown; ++i) text_line(content.notes[i]);
  if (content.notes.size() > shown) {
    text_line(
        absl::StrCat("... and ", content.notes.size() - shown, " more notes"));
  }

  Legend out;
  out.height = static_cast<int>(std::ceil(y - 0.5 * kRow + kPadding - top));
  out.svg = absl::StrCat("<g id=\"legend\">\n<rect class=\"legend-band\" ",
                         "x=\"0\" y=\"", FormatPixels(top), "\" width=\"",
                         width, "\" height=\"", out.height, "\"/>\n",
                         legend.svg(), "</g>\n");
  return out;
}

}  // namespace collide::client::svg_internal
