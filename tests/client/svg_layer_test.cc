// Writing SVG elements: escaping, number format, and what is left out or
// cut at the clip rectangle.
#include "client/svg/svg_layer.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "collide/vec2.h"
#include "gtest/gtest.h"

namespace collide::client::svg_internal {
namespace {

TEST(EscapeXmlTest, MarkupCharactersBecomeEntities) {
  EXPECT_EQ(EscapeXml("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
}

TEST(EscapeXmlTest, ValidUtf8IsKept) {
  const std::string text = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x8E\xAF";
  EXPECT_EQ(EscapeXml(text), text);
}

TEST(EscapeXmlTest, BytesXmlCannotCarryBecomeReplacementCharacters) {
  const std::string replacement = "\xEF\xBF\xBD";
  // A stray continuation byte, a truncated sequence, an overlong '/', a
  // surrogate, a control character.
  EXPECT_EQ(EscapeXml("a\x80z"), "a" + replacement + "z");
  EXPECT_EQ(EscapeXml("a\xE2\x82"), "a" + replacement + replacement);
  EXPECT_EQ(EscapeXml("\xC0\xAF"), replacement + replacement);
  EXPECT_EQ(EscapeXml("\xED\xA0\x80"), replacement + replacement + replacement);
  EXPECT_EQ(EscapeXml(std::string("a\0b\x01", 4)),
            "a" + replacement + "b" + replacement);
  // U+FFFE is not an XML character either.
  EXPECT_EQ(EscapeXml("\xEF\xBF\xBE"), replacement);
}

TEST(EscapeXmlTest, WhitespaceControlsBecomeSpaces) {
  EXPECT_EQ(EscapeXml("a\tb\nc\rd"), "a b c d");
}

TEST(FormatPixelsTest, HundredthsWithoutTrailingZeros) {
  EXPECT_EQ(FormatPixels(12.5), "12.5");
  EXPECT_EQ(FormatPixels(3.0), "3");
  EXPECT_EQ(FormatPixels(-0.001), "0");
  EXPECT_EQ(FormatPixels(12345.678), "12345.68");
  EXPECT_EQ(FormatPixels(-7.25), "-7.25");
  EXPECT_EQ(FormatPixels(0.1), "0.1");
}

TEST(FormatNumberTest, SixSignificantDigits) {
  EXPECT_EQ(FormatNumber(0.25), "0.25");
  EXPECT_EQ(FormatNumber(1.0 / 3.0), "0.333333");
  EXPECT_EQ(FormatNumber(1e60), "1e+60");
}

const Aabb kClip = {{0, 0}, {100, 100}};

TEST(SvgLayerTest, ShapesOutsideTheClipRectangleAreLeftOut) {
  SvgLayer layer(kClip, 0.25);
  layer.Polygon(std::vector<Vec2>{{200, 200}, {300, 200}, {250, 300}}, "", "");
  layer.Chain(std::vector<Vec2>{{-50, -50}, {-10, -60}}, false, "", "");
  layer.Rounded(std::vector<Vec2>{{500, 500}}, 10, "", "");
  layer.Dot({150, 50}, 3, "", "");
  layer.Label({-5, 50}, "x", "label", "");
  EXPECT_EQ(layer.svg(), "");
}

TEST(SvgLayerTest, NonFiniteCoordinatesAreLeftOut) {
  SvgLayer layer(kClip, 0.25);
  layer.Polygon(std::vector<Vec2>{{10, 10}, {NAN, 10}, {20, 20}}, "", "");
  layer.Chain(std::vector<Vec2>{{10, 10}, {INFINITY, 10}}, false, "", "");
  layer.Rounded(std::vector<Vec2>{{10, 10}}, NAN, "", "");
  layer.Arrow({10, 10}, {NAN, 10}, 5, "");
  EXPECT_EQ(layer.svg(), "");
}

TEST(SvgLayerTest, TitleIsAnEscapedChild) {
  SvgLayer layer(kClip, 0.25);
  layer.Dot({50, 50}, 3, " class=\"contact\"", "shape <1> & 2");
  EXPECT_EQ(layer.svg(),
            "<circle cx=\"50\" cy=\"50\" r=\"3\" class=\"contact\">"
            "<title>shape &lt;1&gt; &amp; 2</title></circle>\n");
}

TEST(SvgLayerTest, PointIsDrawnAsAVisibleDot) {
  SvgLayer layer(kClip, 0.25);
  layer.Rounded(std::vector<Vec2>{{10, 20}}, 0.0, "", "");
  EXPECT_EQ(layer.svg(), "<circle cx=\"10\" cy=\"20\" r=\"0.5\"/>\n");
}

TEST(SvgLayerTest, ChainCutIntoPiecesIsOnePath) {
  SvgLayer layer(kClip, 0.25);
  layer.Chain(std::vector<Vec2>{{10, 50}, {10, 150}, {90, 150}, {90, 50}},
              false, "", "");
  EXPECT_EQ(layer.svg(), "<path d=\"M10,50 L10,100 M90,100 L90,50\"/>\n");
}

TEST(SvgLayerTest, LabelHasAHaloUnderIt) {
  SvgLayer layer(kClip, 0.25);
  layer.Label({10, 20}, "a&b", "label", " fill=\"#123456\"");
  EXPECT_EQ(layer.svg(),
            "<text x=\"10\" y=\"20\" fill=\"#123456\" class=\"halo label\">"
            "a&amp;b</text>\n"
            "<text x=\"10\" y=\"20\" fill=\"#123456\" class=\"label\">"
            "a&amp;b</text>\n");
}

TEST(SvgLayerTest, ShapeCoveringTheClipRectangleBecomesIt) {
  SvgLayer layer(kClip, 0.25);
  layer.Rounded(std::vector<Vec2>{{50, 50}}, 1e30, "", "");
  EXPECT_EQ(layer.svg(), "<polygon points=\"0,0 100,0 100,100 0,100\"/>\n");
}

}  // namespace
}  // namespace collide::client::svg_internal
