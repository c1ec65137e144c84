"""Unit tests of the package's builders and helpers (no server): run with
the installed package, `VENV/bin/python -m unittest discover -s
client/python/tests`."""

import unittest

import collide
from collide.names import numbered
from collide.v1 import collision_service_pb2 as cs
from collide.v1 import geometry_pb2 as geo


class ShapesTest(unittest.TestCase):
    def test_level_holds_the_shapes_as_given(self):
        level = collide.level(
            "arena", collide.segment(1, (10, -5), (10, 5), user_data=7),
            collide.box(3, (-10, 0), (1, 2), angle_radians=0.5),
            collide.polygon(4, [(0, 0), (1, 0), (0, 1)], category_bits=2))
        self.assertEqual(level.id, "arena")
        self.assertEqual([s.id for s in level.shapes], [1, 3, 4])
        self.assertEqual(level.shapes[0].segment.p2, geo.Vec2(x=10, y=5))
        self.assertEqual(level.shapes[0].user_data, 7)
        self.assertEqual(level.shapes[1].box.half_extents.y, 2)
        self.assertEqual(level.shapes[1].box.angle_radians, 0.5)
        self.assertFalse(level.shapes[0].HasField("category_bits"))
        self.assertEqual(level.shapes[2].category_bits, 2)
        self.assertEqual(len(level.shapes[2].polygon.vertices), 3)

    def test_two_way_filter_fields_are_set_only_when_given(self):
        plain = collide.circle(1, (0, 0), 1)
        self.assertFalse(plain.HasField("category_bits"))
        self.assertFalse(plain.HasField("mask_bits"))
        self.assertEqual((plain.group, plain.one_sided), (0, False))
        glass = collide.box(2, (0, 0), (1, 1), category_bits=2, mask_bits=0,
                            group=-3)
        self.assertTrue(glass.HasField("mask_bits"))
        self.assertEqual((glass.category_bits, glass.mask_bits, glass.group),
                         (2, 0, -3))
        for shape in (collide.capsule(3, (0, 0), (1, 0), 0.5, mask_bits=6),
                      collide.polygon(4, [(0, 0), (1, 0), (0, 1)],
                                      mask_bits=6)):
            self.assertEqual(shape.mask_bits, 6)

    def test_segments_and_polylines_may_be_one_sided(self):
        platform = collide.segment(1, (0, 0), (4, 0), one_sided=True,
                                   group=2)
        self.assertTrue(platform.one_sided)
        self.assertEqual(platform.group, 2)
        chain = collide.polyline(2, [(0, 0), (1, 1), (2, 0)], one_sided=True,
                                 mask_bits=1 << 63)
        self.assertTrue(chain.one_sided)
        self.assertEqual(chain.mask_bits, 1 << 63)
        self.assertFalse(collide.segment(3, (0, 0), (1, 0)).one_sided)
        with self.assertRaises(TypeError):
            collide.circle(4, (0, 0), 1, one_sided=True)

    def test_vec_takes_tuples_lists_and_vec2(self):
        self.assertEqual(collide.vec([1.5, -2]), geo.Vec2(x=1.5, y=-2))
        given = geo.Vec2(x=3, y=4)
        self.assertIs(collide.vec(given), given)
        with self.assertRaises(ValueError):
            collide.vec((1, 2, 3))


class QueriesTest(unittest.TestCase):
    def test_cast_options_default_to_the_closest_hit(self):
        query = collide.circle_cast(((0, 0), 1), (0, 20))
        self.assertEqual(query.circle_cast.circle.radius, 1)
        self.assertEqual(query.circle_cast.options.mode, cs.CAST_MODE_CLOSEST)
        self.assertFalse(query.circle_cast.options.HasField("max_fraction"))
        self.assertFalse(query.circle_cast.options.filter.HasField("mask_bits"))

    def test_cast_options_as_given(self):
        query = collide.ray((0, 0), (1, 0), max_fraction=0.5, all_hits=True,
                            mask_bits=6, ignore_ids=[3, 4])
        options = query.ray_cast.options
        self.assertEqual(options.mode, cs.CAST_MODE_ALL)
        self.assertEqual(options.max_fraction, 0.5)
        self.assertEqual(options.filter.mask_bits, 6)
        self.assertEqual(list(options.filter.ignore_ids), [3, 4])

    def test_query_filter_defaults_leave_the_fields_unset(self):
        options = collide.ray((0, 0), (1, 0)).ray_cast.options.filter
        self.assertFalse(options.HasField("category_bits"))
        self.assertFalse(options.HasField("mask_bits"))
        self.assertEqual(options.group, 0)

    def test_every_query_takes_the_two_way_filter(self):
        fields = dict(mask_bits=5, category_bits=4, group=-2,
                      ignore_ids=[9])
        filters = [
            collide.ray((0, 0), (1, 0), **fields).ray_cast.options.filter,
            collide.circle_cast(((0, 0), 1), (1, 0), **fields)
            .circle_cast.options.filter,
            collide.overlap(circle=((0, 0), 1), **fields).overlap.filter,
            collide.closest_point((0, 0), **fields).closest_point.filter,
            collide.validate_move((1, 0), circle=((0, 0), 1), **fields)
            .move_validation.filter,
            collide.validate_shot((0, 0), (1, 0), [], **fields)
            .hit_validation.filter,
        ]
        want = cs.QueryFilter(mask_bits=5, category_bits=4, group=-2,
                              ignore_ids=[9])
        for got in filters:
            self.assertEqual(got, want)
        zero = collide.query_filter(category_bits=0)
        self.assertTrue(zero.HasField("category_bits"))

    def test_overlap_and_move_need_exactly_one_shape(self):
        with self.assertRaisesRegex(ValueError, "exactly one"):
            collide.overlap()
        with self.assertRaisesRegex(ValueError, "exactly one"):
            collide.overlap(circle=((0, 0), 1), capsule=((0, 0), (1, 0), 1))
        with self.assertRaisesRegex(ValueError, "exactly one"):
            collide.validate_move((1, 0))
        query = collide.overlap(capsule=((0, 0), (1, 0), 0.5))
        self.assertEqual(query.overlap.WhichOneof("shape"), "capsule")

    def test_shot_with_targets(self):
        query = collide.validate_shot(
            (0, 0), (10, 0), [collide.target(9, circle=((5, 1), 1),
                                             translation=(0, -2))],
            radius=0.1)
        shot = query.hit_validation
        self.assertEqual(shot.radius, 0.1)
        self.assertEqual(shot.targets[0].id, 9)
        self.assertEqual(shot.targets[0].translation.y, -2)
        with self.assertRaisesRegex(ValueError, "target 5"):
            collide.target(5)

    def test_request_ids_numbered_only_when_none_is_set(self):
        queries = numbered([collide.ray((0, 0), (1, 0)) for _ in range(3)])
        self.assertEqual([q.request_id for q in queries], [1, 2, 3])
        mine = collide.ray((0, 0), (1, 0))
        mine.request_id = 40
        self.assertEqual([q.request_id for q in numbered([mine])], [40])

    def test_level_names(self):
        self.assertEqual(collide.level_name("arena"), "levels/arena")
        self.assertEqual(collide.level_name("levels/arena"), "levels/arena")


class VisibilityTest(unittest.TestCase):
    def test_viewers_take_a_range_and_a_cone(self):
        plain = collide.viewer((1, 2))
        self.assertEqual(plain.position, geo.Vec2(x=1, y=2))
        self.assertFalse(plain.HasField("range"))
        self.assertFalse(plain.HasField("cone"))
        sniper = collide.viewer((17, -5), range=0, cone=((-1, 0), 0.5))
        self.assertTrue(sniper.HasField("range"))
        self.assertEqual(sniper.range, 0)
        self.assertEqual(sniper.cone, collide.view_cone((-1, 0), 0.5))
        self.assertEqual(sniper.cone.direction.x, -1)
        self.assertEqual(sniper.cone.half_angle_radians, 0.5)

    def test_targets_are_points_or_discs(self):
        query = collide.visibility(
            [(0, 0), collide.viewer((1, 1), range=5)],
            [(15, 0), [1.5, 2], geo.Vec2(x=3, y=4), ((10, -5), 0.5),
             geo.Circle(radius=2), cs.VisibilityTarget(point=geo.Vec2(x=7))],
            mask_bits=1, group=-4)
        visibility = query.visibility
        self.assertEqual(len(visibility.viewers), 2)
        self.assertFalse(visibility.viewers[0].HasField("range"))
        self.assertEqual(visibility.viewers[1].range, 5)
        kinds = [t.WhichOneof("shape") for t in visibility.targets]
        self.assertEqual(kinds, ["point", "point", "point", "circle",
                                 "circle", "point"])
        self.assertEqual(visibility.targets[1].point, geo.Vec2(x=1.5, y=2))
        self.assertEqual(visibility.targets[3].circle.radius, 0.5)
        self.assertEqual(visibility.targets[5].point.x, 7)
        self.assertEqual(visibility.target_rule, cs.TARGET_RULE_UNSPECIFIED)
        any_part = collide.visibility(
            [(0, 0)], [((3, 4), 0.5)],
            target_rule=cs.TARGET_RULE_ANY_PART).visibility
        self.assertEqual(any_part.target_rule, cs.TARGET_RULE_ANY_PART)
        self.assertEqual(any_part.targets[0].circle.radius, 0.5)
        self.assertEqual(visibility.filter.mask_bits, 1)
        self.assertEqual(visibility.filter.group, -4)

    def test_visibility_polygon(self):
        query = collide.visibility_polygon((5, 2), 3, category_bits=2)
        polygon = query.visibility_polygon
        self.assertEqual(polygon.viewer, geo.Vec2(x=5, y=2))
        self.assertEqual(polygon.range, 3)
        self.assertEqual(polygon.max_arc_angle_radians, 0)
        self.assertEqual(polygon.filter.category_bits, 2)

    def test_visible_sets_read_the_bit_rows(self):
        # Two viewers, 70 targets: two words a row. Viewer 0 sees 0, 5
        # and 69; viewer 1 sees 63 and 64.
        answer = cs.VisibilityResult(
            words_per_viewer=2,
            visible_words=[1 | 1 << 5, 1 << 5, 1 << 63, 1])
        result = cs.QueryResult(request_id=3, visibility=answer)
        self.assertEqual(collide.visible_sets(result), [[0, 5, 69], [63, 64]])
        self.assertEqual(collide.visible_sets(answer), [[0, 5, 69], [63, 64]])
        self.assertTrue(collide.sees(result, 1, 64))
        self.assertFalse(collide.sees(result, 1, 5))
        for viewer, target in ((0, 128), (2, 0), (0, -1)):
            with self.assertRaises(IndexError):
                collide.sees(result, viewer, target)
        empty = cs.VisibilityResult(words_per_viewer=0)
        self.assertEqual(collide.visible_sets(empty), [])
        self.assertEqual(collide.visible_sets(empty, viewer_count=2), [[], []])

    def test_result_helpers_refuse_other_answers(self):
        refused = cs.QueryResult(request_id=4)
        refused.status.code = 8
        refused.status.message = "queries[0].visibility: too many pairs"
        with self.assertRaises(collide.QueryRefused):
            collide.visible_sets(refused)
        cast = cs.QueryResult(request_id=5, cast=cs.CastResult())
        with self.assertRaisesRegex(ValueError, "cast result, not visibility"):
            collide.visible_sets(cast)

    def test_polygon_points_in_order(self):
        answer = cs.VisibilityPolygonResult(vertices=[
            cs.VisibilityPolygonVertex(point=geo.Vec2(x=3, y=0)),
            cs.VisibilityPolygonVertex(point=geo.Vec2(x=0, y=3))])
        self.assertEqual(collide.polygon_points(
            cs.QueryResult(visibility_polygon=answer)), [(3, 0), (0, 3)])


class ConnectionTest(unittest.TestCase):
    def test_token_metadata(self):
        self.assertEqual(collide.connection.token_metadata("abc"),
                         (("authorization", "Bearer abc"),))
        self.assertEqual(collide.connection.token_metadata(None), ())

    def test_half_a_client_certificate_is_refused(self):
        with self.assertRaisesRegex(ValueError, "go together"):
            collide.Tls(cert_file="client.pem").credentials()

    def test_version_is_the_installed_one(self):
        self.assertRegex(collide.__version__, r"^\d+\.\d+\.\d+$")


if __name__ == "__main__":
    unittest.main()
