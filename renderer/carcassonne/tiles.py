"""Carcassonne tile bitmaps drawn from the tile facts, and where each segment's figure stands.

Every tile is drawn in its YAML orientation on a master canvas twice the requested size,
then turned by exact quarter turns and scaled down to flat colours (nearest pixel: smoothed
edges would add hundreds of blended colours that make the board's PNG a sixth larger, and a
board is seen scaled down anyway). Bitmaps are cached per (type, rotation, size). A label map
of the same drawing tells which pixel belongs to which segment; the figure spot of a segment
is the point deepest inside it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from renderer.carcassonne.tiledata import TileFacts, tile_facts
from renderer.style import RGB

FIELD: RGB = (126, 176, 84)
CITY: RGB = (222, 190, 132)
WALL: RGB = (122, 84, 48)
ROOF: RGB = (178, 62, 44)
ROAD: RGB = (246, 240, 222)
ROAD_EDGE: RGB = (92, 80, 64)
RIVER: RGB = (64, 138, 214)
RIVER_EDGE: RGB = (36, 92, 160)
SHIELD: RGB = (32, 68, 160)
STONE: RGB = (236, 230, 218)
HEDGE: RGB = (62, 110, 40)
WINE: RGB = (122, 40, 120)
GRAIN: RGB = (214, 160, 20)
CLOTH: RGB = (40, 120, 150)
#: Lighter grass along roads, sand along rivers, darker stone for the city's texture.
VERGE: RGB = (168, 204, 112)
BANK: RGB = (214, 200, 150)
CITY_SHADE: RGB = (200, 164, 108)

Point = tuple[float, float]

#: Colours that meet at edges inside tiles; the palette holds the steps between them.
TILE_COLOURS: tuple[RGB, ...] = (
    FIELD,
    CITY,
    WALL,
    ROOF,
    ROAD,
    ROAD_EDGE,
    RIVER,
    RIVER_EDGE,
    SHIELD,
    STONE,
    WINE,
    GRAIN,
    CLOTH,
    VERGE,
    BANK,
    CITY_SHADE,
)

# Side midpoints and the corners of each side, in units of the tile size (y grows south).
_MID = {0: (0.5, 0.0), 1: (1.0, 0.5), 2: (0.5, 1.0), 3: (0.0, 0.5)}
_SIDE_CORNERS = {0: ((0, 0), (1, 0)), 1: ((1, 0), (1, 1)), 2: ((1, 1), (0, 1)), 3: ((0, 1), (0, 0))}
_INWARD = {0: (0.0, 1.0), 1: (-1.0, 0.0), 2: (0.0, -1.0), 3: (1.0, 0.0)}
# Seed points just inside each half-edge (Nw … Wn), used to flood the fields of the label map.
_HALF_SEEDS = (
    (0.25, 0.02),
    (0.75, 0.02),
    (0.98, 0.25),
    (0.98, 0.75),
    (0.75, 0.98),
    (0.25, 0.98),
    (0.02, 0.75),
    (0.02, 0.25),
)

_CITY_LABEL = 10
_ROAD_LABEL = 30
_FIELD_LABEL = 50
_MONASTERY_LABEL = 90
_RIVER_LABEL = 250
_BARRIER_LABEL = 251


def _bezier(p0: Point, c: Point, p1: Point, steps: int = 16) -> list[Point]:
    points = []
    for i in range(steps + 1):
        t = i / steps
        a, b, d = (1 - t) ** 2, 2 * t * (1 - t), t**2
        points.append((a * p0[0] + b * c[0] + d * p1[0], a * p0[1] + b * c[1] + d * p1[1]))
    return points


def _arc(corner: Point, radius: float, a0: float, a1: float, steps: int = 16) -> list[Point]:
    return [
        (
            corner[0] + radius * math.cos(a0 + (a1 - a0) * i / steps),
            corner[1] + radius * math.sin(a0 + (a1 - a0) * i / steps),
        )
        for i in range(steps + 1)
    ]


def city_shape(sides: tuple[int, ...], shallow: bool) -> tuple[list[Point], list[Point]]:
    """(area polygon, inner wall line) of a city reaching ``sides``, in tile units."""
    s = set(sides)
    if len(s) == 4:
        square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        return square, []
    if len(s) == 3:
        missing = ({0, 1, 2, 3} - s).pop()
        a, b = _SIDE_CORNERS[missing]
        ix, iy = _INWARD[missing]
        mx, my = _MID[missing]
        control = (mx + ix * 0.7, my + iy * 0.7)
        wall = _bezier(a, control, b)
        # The polygon walks the three city sides, then back along the wall.
        order = [(missing + k) % 4 for k in range(1, 4)]
        outline = [_SIDE_CORNERS[side][0] for side in order] + [_SIDE_CORNERS[order[-1]][1]]
        return outline + wall[1:-1], wall
    if len(s) == 2:
        first, second = sorted(s)
        if (second - first) % 2 == 0:
            # Opposite sides: a band across the tile with a wall on each open side.
            open_sides = sorted({0, 1, 2, 3} - s)
            walls = []
            polygon: list[Point] = []
            for side in open_sides:
                a, b = _SIDE_CORNERS[side]
                ix, iy = _INWARD[side]
                mx, my = _MID[side]
                wall = _bezier(a, (mx + ix * 0.56, my + iy * 0.56), b)
                walls.append(wall)
                polygon += wall
            return polygon, walls[0] + [(math.nan, math.nan)] + walls[1]
        # Adjacent sides: the corner between them, walled by a curve between the far corners.
        corner_side = first if (first + 1) % 4 == second else second
        corner = _SIDE_CORNERS[corner_side][1]
        far_a = _SIDE_CORNERS[corner_side][0]
        far_b = _SIDE_CORNERS[(corner_side + 1) % 4][1]
        pull = 0.1
        control = (0.5 + (corner[0] - 0.5) * pull * 2, 0.5 + (corner[1] - 0.5) * pull * 2)
        wall = _bezier(far_b, control, far_a)
        return [far_a, corner, far_b, *wall[1:-1]], wall
    side = next(iter(s))
    a, b = _SIDE_CORNERS[side]
    ix, iy = _INWARD[side]
    mx, my = _MID[side]
    depth = 0.42 if shallow else 0.6
    wall = _bezier(b, (mx + ix * depth, my + iy * depth), a)
    return [a, b, *wall[1:-1]], wall


def road_points(facts: TileFacts, index: int) -> list[Point]:
    """The centre line of road ``index`` in tile units."""
    sides = facts.roads[index].sides
    if len(sides) == 2:
        a, b = sides
        if (a - b) % 2 == 0:
            return [_MID[a], _MID[b]]
        return _bend(a, b)
    side = sides[0]
    mx, my = _MID[side]
    ix, iy = _INWARD[side]
    neighbour = _gate_neighbour(facts, side)
    if neighbour is not None:
        # Two roads ending at one city from neighbouring sides (T07, T08): each turns away
        # from the other before reaching the wall, so they never seem to meet.
        lx, ly = _INWARD[neighbour]
        knee = (mx + ix * 0.25, my + iy * 0.25)
        return [(mx, my), knee, (knee[0] + ix * 0.08 + lx * 0.3, knee[1] + iy * 0.08 + ly * 0.3)]
    length = _dead_end_length(facts, side)
    return [(mx, my), (mx + ix * length, my + iy * length)]


def _gate_neighbour(facts: TileFacts, side: int) -> int | None:
    """The side of another road ending on a neighbouring side when both run to a city."""
    if not facts.cities or facts.monastery or is_junction(facts):
        return None
    if _city_entry(facts, side) is None:
        return None
    for road in facts.roads:
        other = road.sides[0]
        if len(road.sides) == 1 and (other - side) % 2 == 1 and _city_entry(facts, other):
            return other
    return None


@lru_cache(maxsize=512)
def _city_entry(facts: TileFacts, side: int) -> float | None:
    """How far in from ``side`` a straight road would enter a city wall, if it does."""
    shallow = len(facts.cities) > 1
    polygons = [city_shape(city.sides, shallow)[0] for city in facts.cities]
    mx, my = _MID[side]
    ix, iy = _INWARD[side]
    for step in range(36, 80, 2):
        d = step / 100
        if any(_inside((mx + ix * d, my + iy * d), poly) for poly in polygons):
            return d
    return None


def _one_sided_roads(facts: TileFacts) -> int:
    return sum(1 for road in facts.roads if len(road.sides) == 1)


_HALF_SIDE = (0, 0, 1, 1, 2, 2, 3, 3)
_CORNER_AFTER_SIDE = {0: (1.0, 0.0), 1: (1.0, 1.0), 2: (0.0, 1.0), 3: (0.0, 0.0)}


@lru_cache(maxsize=256)
def hedges(facts: TileFacts) -> tuple[tuple[Point, Point], ...]:
    """Hedges between two fields that meet with nothing drawn between them (I07, T07, T12,
    T22): a line from the point where their half-edges meet towards the middle, stopping at
    a city wall."""
    owner: dict[int, int] = {}
    for index, fld in enumerate(facts.fields):
        for half in fld.halves:
            owner[half] = index
    shallow = len(facts.cities) > 1
    polygons = [city_shape(city.sides, shallow)[0] for city in facts.cities]
    lines = []
    for half in range(8):
        after = (half + 1) % 8
        if half not in owner or after not in owner or owner[half] == owner[after]:
            continue
        side = _HALF_SIDE[half]
        if side == _HALF_SIDE[after]:
            if facts.edges[side] != "field":
                continue  # a road or river already parts them
            start = _MID[side]
        else:
            start = _CORNER_AFTER_SIDE[side]
        end = (0.5, 0.5)
        for step in range(1, 21):
            t = step / 20
            point = (start[0] + (0.5 - start[0]) * t, start[1] + (0.5 - start[1]) * t)
            if any(_inside(point, poly) for poly in polygons):
                end = point
                break
        lines.append((start, end))
    return tuple(lines)


def is_junction(facts: TileFacts) -> bool:
    """Three or more roads end on the tile: they meet at a village square."""
    return _one_sided_roads(facts) >= 3 and not facts.monastery


def _inside(point: Point, polygon: list[Point]) -> bool:
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def monastery_place(facts: TileFacts) -> tuple[Point, float]:
    """(centre, scale) of the monastery: in the middle, or beside a river that crosses the
    tile (R08), on the side of its road."""
    if len(facts.river) == 2 and (facts.river[0] - facts.river[1]) % 2 == 0:
        ends = [road.sides[0] for road in facts.roads if len(road.sides) == 1]
        side = ends[0] if ends else (facts.river[0] + 1) % 4
        mx, my = _MID[side]
        return ((0.5 + (mx - 0.5) * 0.46, 0.5 + (my - 0.5) * 0.46), 0.55)
    return ((0.5, 0.5), 1.0)


@lru_cache(maxsize=512)
def _dead_end_length(facts: TileFacts, side: int) -> float:
    """How far a road that ends on the tile runs in from its side.

    It reaches the monastery or the village square in the middle, or runs on until it
    meets a city wall (a city gate); otherwise it stops short of the middle, so that roads
    ending on one tile visibly do not meet.
    """
    if facts.monastery:
        (cx, cy), _scale = monastery_place(facts)
        mx, my = _MID[side]
        ix, iy = _INWARD[side]
        return (cx - mx) * ix + (cy - my) * iy
    if is_junction(facts):
        return 0.5
    entry = _city_entry(facts, side)
    return 0.36 if entry is None else entry + 0.04


def _scaled(points: list[Point], size: float) -> list[Point]:
    return [(x * size, y * size) for x, y in points]


def _draw_master(facts: TileFacts, size: int, labels: bool) -> Image.Image:
    """Draw a tile in YAML orientation; with ``labels``, draw segment labels instead."""
    mode = "L" if labels else "RGB"
    image = Image.new(mode, (size, size), 0 if labels else FIELD)
    draw = ImageDraw.Draw(image)
    u = size

    def col(colour: RGB, label: int) -> RGB | int:
        return label if labels else colour

    # The river first: roads cross it on bridges (R05, R07).
    if facts.river:
        width = round(u * 0.17)
        if len(facts.river) == 2:
            a, b = facts.river
            line = [_MID[a], _MID[b]] if (a - b) % 2 == 0 else _bend(a, b)
            pts = _scaled(line, u)
            if not labels:
                draw.line(pts, fill=BANK, width=width + max(6, u // 9), joint="curve")
                draw.line(pts, fill=RIVER_EDGE, width=width + max(2, u // 40), joint="curve")
            draw.line(pts, fill=col(RIVER, _RIVER_LABEL), width=width, joint="curve")
        else:
            side = facts.river[0]
            pts = _scaled([_MID[side], (0.5, 0.5)], u)
            if not labels:
                draw.line(pts, fill=BANK, width=width + max(6, u // 9))
                r = u * (0.26 if facts.river_kind == "lake" else 0.12) + max(3, u // 18)
                draw.ellipse((u / 2 - r, u / 2 - r, u / 2 + r, u / 2 + r), fill=BANK)
            draw.line(pts, fill=col(RIVER, _RIVER_LABEL), width=width)
            r = u * (0.26 if facts.river_kind == "lake" else 0.12)
            draw.ellipse(
                (u / 2 - r, u / 2 - r, u / 2 + r, u / 2 + r),
                fill=col(RIVER, _RIVER_LABEL),
                outline=None if labels else RIVER_EDGE,
                width=max(1, u // 50),
            )
    road_width = round(u * 0.1)
    for index in range(len(facts.roads)):
        pts = _scaled(road_points(facts, index), u)
        if not labels:
            draw.line(pts, fill=VERGE, width=road_width + max(6, u // 10), joint="curve")
            draw.line(pts, fill=ROAD_EDGE, width=road_width + max(2, u // 30), joint="curve")
        draw.line(pts, fill=col(ROAD, _ROAD_LABEL + index), width=road_width, joint="curve")
    if is_junction(facts):
        # The junction's village square.
        r = u * 0.11
        draw.rectangle(
            (u / 2 - r, u / 2 - r, u / 2 + r, u / 2 + r),
            fill=_BARRIER_LABEL if labels else ROOF,
            outline=None if labels else ROAD_EDGE,
            width=max(1, u // 60),
        )
    for start, end in hedges(facts):
        pts = _scaled([start, end], u)
        if labels:
            draw.line(pts, fill=_BARRIER_LABEL, width=2)
        else:
            draw.line(pts, fill=HEDGE, width=max(2, u // 30))
    shallow = len(facts.cities) > 1
    for index, city in enumerate(facts.cities):
        polygon, wall = city_shape(city.sides, shallow)
        draw.polygon(_scaled(polygon, u), fill=col(CITY, _CITY_LABEL + index))
        if not labels:
            _city_texture(draw, polygon, u)
        if not labels and wall:
            segment: list[Point] = []
            for point in [*wall, (math.nan, math.nan)]:
                if math.isnan(point[0]):
                    if len(segment) > 1:
                        _draw_wall(draw, segment, polygon, u)
                    segment = []
                else:
                    segment.append(point)
    if facts.monastery:
        (cx, cy), scale = monastery_place(facts)
        r = u * 0.17 * scale
        if labels:
            # Beside a river the cloister reaches the bank, splitting the fields on its side.
            x0, x1 = min(cx * u - r, u / 2), max(cx * u + r, u / 2)
            y0, y1 = min(cy * u - r, u / 2), max(cy * u + r, u / 2)
            if scale == 1.0:
                x0, y0, x1, y1 = cx * u - r, cy * u - r, cx * u + r, cy * u + r
            draw.rectangle((x0, y0, x1, y1), fill=_MONASTERY_LABEL)
        else:
            _draw_monastery(draw, u, (cx, cy), scale)
    if labels:
        _flood_fields(image, facts)
    else:
        _draw_symbols(draw, facts, u)
    return image


def _city_texture(draw: ImageDraw.ImageDraw, polygon: list[Point], u: int) -> None:
    """Rows of little roofs inside a city, so it reads as a town and not a plain patch."""
    step = 0.16
    r = u * 0.028
    for row in range(1, 7):
        for col in range(1, 7):
            x = col * step - (0.08 if row % 2 else 0.0)
            y = row * step - 0.04
            near_edge = any(
                not _inside((x + dx, y + dy), polygon)
                for dx, dy in ((0.07, 0), (-0.07, 0), (0, 0.07), (0, -0.07))
            )
            if not near_edge and _inside((x, y), polygon):
                px, py = x * u, y * u
                draw.polygon(
                    ((px - r * 1.3, py + r), (px, py - r), (px + r * 1.3, py + r)), fill=CITY_SHADE
                )


def _draw_wall(
    draw: ImageDraw.ImageDraw, segment: list[Point], polygon: list[Point], u: int
) -> None:
    """A city wall: a thick stone line with merlons on the outer side every so often."""
    width = max(3, u // 16)
    points = _scaled(segment, u)
    draw.line(points, fill=WALL, width=width, joint="curve")
    size = u * 0.035
    for (x0, y0), (x1, y1) in zip(points[::2], points[2::2], strict=False):
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length
        # The merlon stands outside the city: flip the normal if it points inwards.
        if _inside(((mx + nx * size * 2) / u, (my + ny * size * 2) / u), polygon):
            nx, ny = -nx, -ny
        cx, cy = mx + nx * width * 0.6, my + ny * width * 0.6
        draw.rectangle((cx - size, cy - size, cx + size, cy + size), fill=WALL)


def _bend(a: int, b: int) -> list[Point]:
    """A bend between adjacent sides: a quarter circle around the corner they share, so two
    bends on one tile (I17) never touch."""
    corner_side = a if (a + 1) % 4 == b else b
    corner = _SIDE_CORNERS[corner_side][1]
    p0, p1 = _MID[a], _MID[b]
    a0 = math.atan2(p0[1] - corner[1], p0[0] - corner[0])
    a1 = math.atan2(p1[1] - corner[1], p1[0] - corner[0])
    if a1 - a0 > math.pi:
        a1 -= 2 * math.pi
    elif a0 - a1 > math.pi:
        a1 += 2 * math.pi
    return _arc(corner, 0.5, a0, a1)


def _flood_fields(image: Image.Image, facts: TileFacts) -> None:
    size = image.width
    inner = None
    for index, fld in enumerate(facts.fields):
        if not fld.halves:
            inner = index
        for half in fld.halves:
            sx, sy = _HALF_SEEDS[half]
            xy = (min(size - 1, round(sx * size)), min(size - 1, round(sy * size)))
            if image.getpixel(xy) == 0:
                ImageDraw.floodfill(image, xy, _FIELD_LABEL + index)
    if inner is not None:
        # An inner field is whatever ground is left once the edge fields are flooded.
        image.paste(_FIELD_LABEL + inner, mask=image.point(lambda v: 255 if v == 0 else 0))


def _draw_monastery(
    draw: ImageDraw.ImageDraw, u: int, centre: Point = (0.5, 0.5), scale: float = 1.0
) -> None:
    def p(x: float, y: float) -> Point:
        return ((centre[0] + (x - 0.5) * scale) * u, (centre[1] + (y - 0.5) * scale) * u)

    width = max(1, u // 60)
    draw.rectangle((*p(0.36, 0.44), *p(0.64, 0.68)), fill=STONE, outline=WALL, width=width)
    draw.polygon((p(0.32, 0.45), p(0.5, 0.3), p(0.68, 0.45)), fill=ROOF, outline=WALL)
    draw.rectangle((*p(0.47, 0.55), *p(0.53, 0.68)), fill=WALL)
    draw.line((*p(0.5, 0.18), *p(0.5, 0.31)), fill=WALL, width=max(2, u // 40))
    draw.line((*p(0.45, 0.23), *p(0.55, 0.23)), fill=WALL, width=max(2, u // 40))


def _draw_symbols(draw: ImageDraw.ImageDraw, facts: TileFacts, u: int) -> None:
    symbol_spots = _tile_spots(facts.id)[1]
    for index, city in enumerate(facts.cities):
        spot = symbol_spots.get(index, (0.3, 0.3))
        x, y = spot[0] * u, spot[1] * u
        if city.cathedral:
            _draw_cathedral(draw, u, spot)
            continue
        if city.shield:
            s = u * 0.12
            draw.polygon(
                (
                    (x - s, y - s),
                    (x + s, y - s),
                    (x + s, y + s * 0.3),
                    (x, y + s * 1.2),
                    (x - s, y + s * 0.3),
                ),
                fill=SHIELD,
                outline=(255, 255, 255),
            )
            draw.line((x, y - s * 0.7, x, y + s * 0.8), fill=(255, 255, 255), width=max(2, u // 40))
            draw.line(
                (x - s * 0.7, y - s * 0.2, x + s * 0.7, y - s * 0.2),
                fill=(255, 255, 255),
                width=max(2, u // 40),
            )
        if city.goods:
            draw_goods(draw, city.goods, x, y, u * 0.13)
    for index, road in enumerate(facts.roads):
        if road.inn:
            points = road_points(facts, index)
            px, py = _along(points, INN_AT)
            ax, ay = _along(points, INN_AT + 0.05)
            length = math.hypot(ax - px, ay - py) or 1.0
            normal = (-(ay - py) / length, (ax - px) / length)
            if normal[1] > 0 or (normal[1] == 0 and normal[0] < 0):
                normal = (-normal[0], -normal[1])  # the house above or right of the road
            _draw_inn(draw, px * u, py * u, u, normal)


#: How far along its road (0 = its first end) an inn stands, and a figure on that road: apart,
#: so the figure never hides the inn.
INN_AT = 0.22
INN_ROAD_FIGURE_AT = 0.7


def _along(points: list[Point], fraction: float) -> Point:
    """The point ``fraction`` of the way along the polyline ``points``."""
    lengths = [math.dist(a, b) for a, b in itertools.pairwise(points)]
    goal = sum(lengths) * fraction
    for (a, b), length in zip(itertools.pairwise(points), lengths, strict=True):
        if goal <= length and length > 0:
            t = goal / length
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        goal -= length
    return points[-1]


def _draw_cathedral(draw: ImageDraw.ImageDraw, u: int, centre: Point) -> None:
    """A church with two towers, about half a tile tall, centred on ``centre``."""
    scale = 0.85

    def p(x: float, y: float) -> Point:
        return ((centre[0] + (x - 0.5) * scale) * u, (centre[1] + (y - 0.45) * scale) * u)

    w = max(1, u // 60)
    draw.rectangle((*p(0.34, 0.42), *p(0.66, 0.7)), fill=STONE, outline=WALL, width=w)
    for x0 in (0.3, 0.6):
        draw.rectangle((*p(x0, 0.28), *p(x0 + 0.1, 0.7)), fill=STONE, outline=WALL, width=w)
        draw.polygon(
            (p(x0, 0.28), p(x0 + 0.05, 0.18), p(x0 + 0.1, 0.28)), fill=SHIELD, outline=WALL
        )
    draw.ellipse((*p(0.45, 0.47), *p(0.55, 0.57)), fill=SHIELD)
    draw.rectangle((*p(0.46, 0.6), *p(0.54, 0.7)), fill=WALL)


def _draw_inn(
    draw: ImageDraw.ImageDraw, x: float, y: float, u: int, normal: Point = (0.7, 0.7)
) -> None:
    """The inn: a red-roofed house on one side of the road, its little lake on the other
    (``normal``: the unit direction across the road)."""
    ox, oy = x - normal[0] * u * 0.16, y - normal[1] * u * 0.16
    r = u * 0.075
    draw.ellipse(
        (ox - r * 1.4, oy - r * 0.8, ox + r * 1.4, oy + r * 0.8), fill=RIVER, outline=RIVER_EDGE
    )
    hx, hy = x + normal[0] * u * 0.17, y + normal[1] * u * 0.17
    s = u * 0.085
    draw.rectangle((hx - s, hy - s * 0.4, hx + s, hy + s), fill=STONE, outline=WALL)
    draw.polygon(
        ((hx - s * 1.3, hy - s * 0.3), (hx, hy - s * 1.4), (hx + s * 1.3, hy - s * 0.3)),
        fill=ROOF,
        outline=WALL,
    )


def draw_goods(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, s: float) -> None:
    """Goods as distinct shapes: grapes (wine), a sheaf (grain), a folded bolt (cloth)."""
    if kind == "wine":
        r = s * 0.38
        for dx, dy in (
            (-0.45, -0.5),
            (0.45, -0.5),
            (0, 0),
            (-0.45 * 2, -0.5),
            (0.9, -0.5),
            (-0.45, 0.5),
            (0.45, 0.5),
            (0, 1.0),
        ):
            cx, cy = x + dx * s * 0.8, y + dy * s * 0.8
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WINE, outline=(255, 255, 255))
    elif kind == "grain":
        for dx in (-0.5, 0, 0.5):
            draw.line(
                (x + dx * s, y + s, x + dx * s * 1.6, y - s),
                fill=GRAIN,
                width=max(2, round(s * 0.35)),
            )
        draw.ellipse(
            (x - s * 0.6, y - s * 1.3, x + s * 0.6, y - s * 0.3), fill=GRAIN, outline=(120, 90, 10)
        )
    else:
        draw.rectangle(
            (x - s, y - s * 0.7, x + s, y + s * 0.7), fill=CLOTH, outline=(255, 255, 255)
        )
        draw.line((x - s, y, x + s, y), fill=(255, 255, 255), width=max(1, round(s * 0.2)))


#: The transposition that turns a tile by each multiple of 90 degrees clockwise.
ROTATIONS = {
    0: None,
    90: Image.Transpose.ROTATE_270,
    180: Image.Transpose.ROTATE_180,
    270: Image.Transpose.ROTATE_90,
}


#: The master of every tile up to half this size: one drawing per tile serves every board
#: size (the board's tiles are at most 96 px), so a running bot draws each tile once.
MASTER_SIZE = 192


def master_size(size: int) -> int:
    """The size of the master a tile bitmap of ``size`` px is scaled down from."""
    return MASTER_SIZE if 2 * size <= MASTER_SIZE else 2 * size


@lru_cache(maxsize=2048)
def tile_image(tile_id: str, rot: int, size: int) -> Image.Image:
    """The bitmap of ``tile_id`` turned ``rot`` degrees clockwise, ``size`` px square."""
    scaled = tile_master(tile_id, master_size(size)).resize((size, size), Image.Resampling.NEAREST)
    transpose = ROTATIONS[rot % 360]
    return scaled.transpose(transpose) if transpose is not None else scaled


def warm_tiles(tile_ids: Iterable[str]) -> None:
    """Draw the masters of ``tile_ids`` now (about 10 ms each), not in a player's image."""
    for tile_id in tile_ids:
        tile_master(tile_id, MASTER_SIZE)


@lru_cache(maxsize=256)
def tile_master(tile_id: str, size: int) -> Image.Image:
    """The drawing of ``tile_id`` in its YAML orientation, ``size`` px square (RGB)."""
    return _draw_master(tile_facts(tile_id), size, labels=False)


@lru_cache(maxsize=256)
def _tile_spots(tile_id: str) -> tuple[dict[str, Point], dict[int, Point]]:
    """(figure spot per segment, symbol spot per city index) in YAML orientation.

    A figure stands at the point deepest inside its segment; a city's shield, goods or
    cathedral goes to the deepest point left once the figure's place is kept clear, so a
    figure never hides them.
    """
    facts = tile_facts(tile_id)
    # A coarse map is plenty for placing a figure, and Pillow's flood fill is pure Python.
    size = 36
    label_map = _draw_master(facts, size, labels=True)
    spots: dict[str, Point] = {}
    symbols: dict[int, Point] = {}
    monk: Point | None = None
    if facts.monastery:
        (cx, cy), scale = monastery_place(facts)
        # The monk stands beside the cloister, in the corner its roads leave free, so the
        # building stays in sight; beside a river there is no room and it stands in front.
        monk = (0.79, 0.77) if scale == 1.0 else (cx, cy + 0.06 * scale)
    for name in facts.segment_names():
        if name == "monastery":
            assert monk is not None
            spots[name] = monk
            continue
        kind = name.rstrip("0123456789")
        index = int(name[len(kind) :])
        label = {"city": _CITY_LABEL, "road": _ROAD_LABEL, "field": _FIELD_LABEL}[kind] + index
        clear = monk if kind == "field" else None
        spot = (
            _deepest_point(label_map, label, keep_clear=clear)
            or _deepest_point(label_map, label)
            or _fallback_spot(facts, kind, index)
        )
        if kind == "road" and facts.roads[index].inn:
            spot = _along(road_points(facts, index), INN_ROAD_FIGURE_AT)
        elif kind == "road" and any(math.dist(spot, other) < 0.2 for other in spots.values()):
            # Roads crossing without meeting (T24): the second figure stands further out.
            a, b = road_points(facts, index)[0], road_points(facts, index)[-1]
            spot = (a[0] + (b[0] - a[0]) * 0.3, a[1] + (b[1] - a[1]) * 0.3)
        spots[name] = spot
        if kind == "city":
            symbols[index] = _deepest_point(label_map, label, keep_clear=spot) or spot
    return spots, symbols


def _segment_spots(tile_id: str) -> dict[str, Point]:
    return _tile_spots(tile_id)[0]


def _deepest_point(
    label_map: Image.Image, label: int, keep_clear: Point | None = None
) -> Point | None:
    """The point of ``label``'s area farthest from its border (repeated erosion).

    With ``keep_clear``, a disc around that point counts as outside the area.
    """
    mask = label_map.point(lambda v: 255 if v == label else 0)
    if mask.getbbox() is None:
        return None
    # The tile's border counts as outside: a spot must sit inside the tile, not on its edge.
    ImageDraw.Draw(mask).rectangle((0, 0, mask.width - 1, mask.height - 1), outline=0, width=2)
    if keep_clear is not None:
        # About the size of a figure: a shield, goods or cathedral stays beside it, not under.
        r = mask.width * 0.26
        kx, ky = keep_clear[0] * mask.width, keep_clear[1] * mask.height
        ImageDraw.Draw(mask).ellipse((kx - r, ky - r, kx + r, ky + r), fill=0)
    if mask.getbbox() is None:
        return None
    last = mask
    for _ in range(60):
        eroded = last.filter(ImageFilter.MinFilter(3))
        if eroded.getbbox() is None:
            break
        last = eroded
    x0, y0, x1, y1 = last.getbbox()  # type: ignore[misc]
    cx, cy = (x0 + x1 - 1) / 2, (y0 + y1 - 1) / 2
    best = None
    best_d = math.inf
    pixels = last.load()
    for y in range(y0, y1):
        for x in range(x0, x1):
            if pixels[x, y]:  # type: ignore[index]
                d = (x - cx) ** 2 + (y - cy) ** 2
                if d < best_d:
                    best, best_d = (x, y), d
    assert best is not None
    size = label_map.width
    return ((best[0] + 0.5) / size, (best[1] + 0.5) / size)


def _fallback_spot(facts: TileFacts, kind: str, index: int) -> Point:
    if kind == "road":
        pts = road_points(facts, index)
        return pts[len(pts) // 2]
    return (0.5, 0.5)


def rotate_point(point: Point, rot: int) -> Point:
    """A point in tile units after turning the tile ``rot`` degrees clockwise."""
    x, y = point
    for _ in range((rot // 90) % 4):
        x, y = 1 - y, x
    return (x, y)


def segment_spot(tile_id: str, rot: int, segment: str) -> Point:
    """Where a figure on ``segment`` of ``tile_id`` at ``rot`` stands, in tile units."""
    spots = _segment_spots(tile_id)
    return rotate_point(spots.get(segment, (0.5, 0.5)), rot)


def symbol_spots(tile_id: str, rot: int) -> list[Point]:
    """Where the tile's shields, goods and cathedrals are drawn (tile units, turned ``rot``),
    and its monastery, so that badges can keep clear of them."""
    facts = tile_facts(tile_id)
    spots = [rotate_point(p, rot) for p in _tile_spots(tile_id)[1].values()]
    if facts.monastery:
        spots.append(rotate_point(monastery_place(facts)[0], rot))
    return spots
