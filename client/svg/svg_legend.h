// The legend band under an SVG renderer picture (svg_render.h): a summary
// line, a sample and a name for each kind of mark the picture uses, then
// notes on what it could not draw.
#ifndef COLLIDE_CLIENT_SVG_SVG_LEGEND_H_
#define COLLIDE_CLIENT_SVG_SVG_LEGEND_H_

#include <bitset>
#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace collide::client::svg_internal {

// The kinds of mark the legend can explain.
enum Role {
  kRoleSolid,           // a solid level shape
  kRoleLine,            // a level segment or polyline
  kRoleOneSided,        // a one-sided one, ticks on its front
  kRoleFiltered,        // a level shape with a mask or group of its own
  kRoleSwept,           // a cast's swept region
  kRoleStart,           // a cast's shape at the start
  kRoleEnd,             // a cast's shape at the end (dashed)
  kRoleToi,             // a cast's shape at a hit's fraction
  kRoleContact,         // a contact point and its normal
  kRoleInitialOverlap,  // the same for an initial overlap
  kRoleMiss,            // a miss, an error or no result (grey)
  kRoleOverlapped,      // a level shape an overlap query found
  kRoleClosest,         // a closest point and the line to it
  kRoleSearch,          // a closest-point query's max distance
  kRoleSafe,            // a move's furthest safe position
  kRoleSlide,           // a move's collide-and-slide path
  kRoleSlideEnd,        // where the slide ends
  kRoleExit,            // the way out for a mover starting inside
  kRoleViewer,          // a viewer, its range and its cone
  kRoleSight,           // a line of sight to a target seen
  kRoleSeen,            // a target some viewer sees
  kRoleUnseen,          // a target no viewer sees
  kRoleVisible,         // a visibility polygon's region
  kRoleCount,
};

struct LegendContent {
  // The first line (the level, counts, the grid's spacing).
  std::string summary;
  // The roles the picture uses; only these get an entry.
  std::bitset<kRoleCount> roles;
  // One line each; the first 8 are shown, then how many more there are.
  std::vector<std::string> notes;
};

struct Legend {
  std::string svg;  // a <g id="legend"> element
  int height = 0;   // pixels
};

// The legend for a picture `width` pixels wide, drawn from y = `top` down.
// Text lines longer than the width holds are cut (with "...", between
// UTF-8 characters): the legend does not wrap text.
Legend DrawLegend(const LegendContent& content, int width, double top);

// `text` cut to at most `max_bytes` bytes, ending in "...", without
// splitting a UTF-8 sequence; unchanged when it fits.
std::string Shortened(absl::string_view text, size_t max_bytes);

}  // namespace collide::client::svg_internal

#endif  // COLLIDE_CLIENT_SVG_SVG_LEGEND_H_
