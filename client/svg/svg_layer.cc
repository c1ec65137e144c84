#include "client/svg/svg_layer.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "client/svg/svg_geometry.h"
#include "collide/vec2.h"

namespace collide::client::svg_internal {
namespace {

// Below this a rounded shape's radius is drawn as none (pixels).
constexpr double kNoRadius = 0.01;
// A one-point shape is drawn at least this large (pixels), so points show.
constexpr double kMinDotRadius = 0.5;

constexpr absl::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the valid UTF-8 sequence at the start of `text` and its code
// point, or 0 when it is not one (truncated, overlong, a surrogate, beyond
// U+10FFFF).
int DecodeUtf8(absl::string_view text, uint32_t& code_point) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  const uint8_t lead = byte(0);
  int length;
  uint32_t minimum;
  if (lead < 0x80) {
    code_point = lead;
    return 1;
  } else if ((lead & 0xE0) == 0xC0) {
    length = 2;
    minimum = 0x80;
    code_point = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    minimum = 0x800;
    code_point = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    minimum = 0x10000;
    code_point = lead & 0x07;
  } else {
    return 0;
  }
  if (text.size() < static_cast<size_t>(length)) return 0;
  for (int i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(i) & 0x3F);
  }
  if (code_point < minimum || code_point > 0x10FFFF ||
      (code_point >= 0xD800 && code_point <= 0xDFFF)) {
    return 0;
  }
  return length;
}

// XML 1.0's Char production.
bool IsXmlChar(uint32_t c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

std::string PointList(absl::Span<const Vec2> points) {
  std::string out;
  for (const Vec2 p : points) {
    absl::StrAppend(&out, out.empty() ? "" : " ", FormatPixels(p.x), ",",
                    FormatPixels(p.y));
  }
  return out;
}

bool AllFinite(absl::Span<const Vec2> points) {
  for (const Vec2 p : points) {
    if (!IsFinite(p)) return false;
  }
  return true;
}

}  // namespace

std::string EscapeXml(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    uint32_t c = 0;
    const int length = DecodeUtf8(text, c);
    if (length == 0 || !IsXmlChar(c)) {
      absl::StrAppend(&out, kReplacement);
      text.remove_prefix(length == 0 ? 1 : length);
      continue;
    }
    switch (c) {
      case '&':
        out.append("&amp;");
        break;
      case '<':
        out.append("&lt;");
        break;
      case '>':
        out.append("&gt;");
        break;
      case '"':
        out.append("&quot;");
        break;
      case '\'':
        out.append("&apos;");
        break;
      case '\t':
      case '\n':
      case '\r':
        out.push_back(' ');
        break;
      default:
        absl::StrAppend(&out, text.substr(0, length));
    }
    text.remove_prefix(length);
  }
  return out;
}

std::string FormatPixels(double value) {
  std::string text = absl::StrFormat("%.2f", value);
  // "%.2f" always has a point: drop trailing zeros, then a bare point.
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  if (text == "-0") text = "0";
  return text;
}

std::string FormatNumber(double value) {
  return absl::StrFormat("%.6g", value);
}

std::string FormatShort(double value) { return absl::StrFormat("%.4g", value); }

SvgLayer::SvgLayer(const Aabb& clip, double tolerance)
    : clip_(clip), tolerance_(tolerance) {}

void SvgLayer::OpenElement(absl::string_view name, absl::string_view geometry,
                           absl::string_view attributes,
                           absl::string_view title) {
  absl::StrAppend(&svg_, "<", name, geometry, attributes);
  if (title.empty()) {
    svg_.append("/>\n");
  } else {
    absl::StrAppend(&svg_, "><title>", EscapeXml(title), "</title></", name,
                    ">\n");
  }
}

void SvgLayer::WritePieces(absl::Span<const std::vector<Vec2>> pieces,
                           absl::string_view attributes,
                           absl::string_view title) {
  if (pieces.empty()) return;
  if (pieces.size() == 1) {
    const std::vector<Vec2>& piece = pieces[0];
    if (piece.size() == 2) {
      OpenElement("line",
                  absl::StrCat(" x1=\"", FormatPixels(piece[0].x), "\" y1=\"",
                               FormatPixels(piece[0].y), "\" x2=\"",
                               FormatPixels(piece[1].x), "\" y2=\"",
                               FormatPixels(piece[1].y), "\""),
                  attributes, title);
    } else {
      OpenElement("polyline",
                  absl::StrCat(" points=\"", PointList(piece), "\""),
                  attributes, title);
    }
    return;
  }
  std::string d;
  for (const std::vector<Vec2>& piece : pieces) {
    for (size_t i = 0; i < piece.size(); ++i) {
      absl::StrAppend(&d, d.empty() ? "" : " ", i == 0 ? "M" : "L",
                      FormatPixels(piece[i].x), ",", FormatPixels(piece[i].y));
    }
  }
  OpenElement("path", absl::StrCat(" d=\"", d, "\""), attributes, title);
}

void SvgLayer::Polygon(absl::Span<const Vec2> points,
                       absl::string_view attributes, absl::string_view title) {
  if (points.empty() || !AllFinite(points)) return;
  const Aabb bounds = BoundsOf(points, 0.0);
  if (!Overlaps(bounds, clip_)) return;
  std::vector<Vec2> clipped;
  if (!Contains(clip_, bounds)) {
    clipped = ClipPolygon(points, clip_);
    if (clipped.size() < 3) return;
    points = clipped;
  }
  OpenElement("polygon", absl::StrCat(" points=\"", PointList(points), "\""),
              attributes, title);
}

void SvgLayer::Chain(absl::Span<const Vec2> points, bool closed,
                     absl::string_view attributes, absl::string_view title) {
  if (points.size() < 2 || !AllFinite(points)) return;
  const Aabb bounds = BoundsOf(points, 0.0);
  if (!Overlaps(bounds, clip_)) return;
  if (!Contains(clip_, bounds)) {
    WritePieces(ClipChain(points, closed, clip_), attributes, title);
    return;
  }
  if (closed && points.size() >= 3) {
    OpenElement("polygon", absl::StrCat(" points=\"", PointList(points), "\""),
                attributes, title);
    return;
  }
  std::vector<std::vector<Vec2>> whole = {{points.begin(), points.end()}};
  if (closed) whole[0].push_back(points[0]);
  WritePieces(whole, attributes, title);
}

void SvgLayer::Rounded(absl::Span<const Vec2> hull, double radius,
                       absl::string_view attributes, absl::string_view title) {
  if (hull.empty() || !AllFinite(hull) || !std::isfinite(radius)) return;
  if (hull.size() == 1) radius = std::max(radius, kMinDotRadius);
  const Aabb bounds = BoundsOf(hull, radius);
  if (!Overlaps(bounds, clip_)) return;
  if (radius < kNoRadius) {
    if (hull.size() == 2) {
      Chain(hull, /*closed=*/false, attributes, title);
    } else {
      Polygon(hull, attributes, title);
    }
    return;
  }
  if (!Contains(clip_, bounds)) {
    // Too large to write exactly: its visible part as a polygon, or the
    // whole clip rectangle when the shape covers it (sampling would be
    // wasted there).
    const Vec2 corners[4] = {clip_.lower,
                             {clip_.upper.x, clip_.lower.y},
                             clip_.upper,
                             {clip_.lower.x, clip_.upper.y}};
    bool covers = true;
    for (const Vec2 corner : corners) {
      if (DistanceToConvex(hull, corner) > radius) covers = false;
    }
    if (covers) {
      Polygon(corners, attributes, title);
    } else {
      Polygon(RoundedOutline(hull, radius, clip_, tolerance_), attributes,
              title);
    }
    return;
  }
  if (hull.size() == 1) {
    OpenElement("circle",
                absl::StrCat(" cx=\"", FormatPixels(hull[0].x), "\" cy=\"",
                             FormatPixels(hull[0].y), "\" r=\"",
                             FormatPixels(radius), "\""),
                attributes, title);
    return;
  }
  // The offset outline of a counter-clockwise hull: along each edge pushed
  // out by radius, then an arc about the next vertex. Angles grow in the
  // coordinates' counter-clockwise sense, which is SVG's positive-angle
  // direction: sweep-flag 1; a convex hull turns by at most half a turn at
  // a vertex, so large-arc-flag is 0.
  const size_t n = hull.size();
  auto offset = [&](size_t vertex, size_t edge) {
    return hull[vertex] +
           radius * Normalize(RightPerp(hull[(edge + 1) % n] - hull[edge]));
  };
  const Vec2 start = offset(0, 0);
  std::string d =
      absl::StrCat("M", FormatPixels(start.x), ",", FormatPixels(start.y));
  const std::string r = FormatPixels(radius);
  for (size_t i = 0; i < n; ++i) {
    const size_t next = (i + 1) % n;
    const Vec2 edge_end = offset(next, i);
    const Vec2 arc_end = offset(next, next);
    absl::StrAppend(&d, " L", FormatPixels(edge_end.x), ",",
                    FormatPixels(edge_end.y), " A", r, ",", r, " 0 0 1 ",
                    FormatPixels(arc_end.x), ",", FormatPixels(arc_end.y));
  }
  d.append(" Z");
  OpenElement("path", absl::StrCat(" d=\"", d, "\""), attributes, title);
}

void SvgLayer::Dot(Vec2 center, double radius, absl::string_view attributes,
                   absl::string_view title) {
  if (!IsFinite(center) || !Contains(clip_, {center, center})) return;
  OpenElement("circle",
              absl::StrCat(" cx=\"", FormatPixels(center.x), "\" cy=\"",
                           FormatPixels(center.y), "\" r=\"",
                           FormatPixels(radius), "\""),
              attributes, title);
}

void SvgLayer::Arrow(Vec2 from, Vec2 to, double head,
                     absl::string_view attributes) {
  if (!IsFinite(from) || !IsFinite(to) || from == to) return;
  // Two barbs 25 degrees either side of the shaft, pointing back from `to`.
  const Vec2 back = head * Normalize(from - to);
  const double c = std::cos(0.436);
  const double s = std::sin(0.436);
  const Vec2 left = to + Vec2{c * back.x - s * back.y, s * back.x + c * back.y};
  const Vec2 right =
      to + Vec2{c * back.x + s * back.y, -s * back.x + c * back.y};
  std::vector<std::vector<Vec2>> pieces;
  for (const std::vector<Vec2>& part :
       {std::vector<Vec2>{from, to}, std::vector<Vec2>{left, to, right}}) {
    for (std::vector<Vec2>& piece : ClipChain(part, /*closed=*/false, clip_)) {
      pieces.push_back(std::move(piece));
    }
  }
  if (pieces.empty()) return;
  std::string d;
  for (const std::vector<Vec2>& piece : pieces) {
    for (size_t i = 0; i < piece.size(); ++i) {
      absl::StrAppend(&d, d.empty() ? "" : " ", i == 0 ? "M" : "L",
                      FormatPixels(piece[i].x), ",", FormatPixels(piece[i].y));
    }
  }
  OpenElement("path", absl::StrCat(" d=\"", d, "\""), attributes, "");
}

void SvgLayer::Label(Vec2 at, absl::string_view text,
                     absl::string_view css_class,
                     absl::string_view attributes) {
  if (!IsFinite(at) || !Contains(clip_, {at, at})) return;
  const std::string position = absl::StrCat(
      " x=\"", FormatPixels(at.x), "\" y=\"", FormatPixels(at.y), "\"");
  const std::string escaped = EscapeXml(text);
  absl::StrAppend(&svg_, "<text", position, attributes, " class=\"halo ",
                  css_class, "\">", escaped, "</text>\n<text", position,
                  attributes, " class=\"", css_class, "\">", escaped,
                  "</text>\n");
}

void SvgLayer::Append(absl::string_view svg) { absl::StrAppend(&svg_, svg); }

}  // namespace collide::client::svg_internal
