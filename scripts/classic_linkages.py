#!/usr/bin/env python3
"""Writes the classic-linkage examples (examples/jansen_leg.rlx, watt_six_bar.rlx,
whitworth_quick_return.rlx, peaucellier_lipkin.rlx, chebyshev_lambda.rlx, hoeckens.rlx) with
exactly consistent initial positions and velocities: every joint point is a closed-form dyad
(intersection of two circles) of the crank angle, and its rate is the exact derivative (forward
automatic differentiation with dual numbers) times the drive's rate. Run from the repository root;
prints the numbers docs/examples.md quotes."""
import json
import math
import re


class Dual:
    """a + b eps with eps^2 = 0: a value and its derivative with respect to the crank angle."""

    def __init__(self, a, b=0.0):
        self.a, self.b = float(a), float(b)

    @staticmethod
    def of(x):
        return x if isinstance(x, Dual) else Dual(x)

    def __add__(self, o):
        o = Dual.of(o)
        return Dual(self.a + o.a, self.b + o.b)

    __radd__ = __add__


    def __sub__(self, o):
        o = Dual.of(o)
        return Dual(self.a - o.a, self.b - o.b)

    def __rsub__(self, o):
        return Dual.of(o) - self

    def __neg__(self):
        return Dual(-self.a, -self.b)

    def __mul__(self, o):
        o = Dual.of(o)
        return Dual(self.a * o.a, self.a * o.b + self.b * o.a)

    __rmul__ = __mul__

    def __truediv__(self, o):
        o = Dual.of(o)
        return Dual(self.a / o.a, (self.b * o.a - self.a * o.b) / (o.a * o.a))


def sqrt(x):
    r = math.sqrt(x.a)
    return Dual(r, x.b / (2 * r))


def cos(x):
    return Dual(math.cos(x.a), -math.sin(x.a) * x.b)


def sin(x):
    return Dual(math.sin(x.a), math.cos(x.a) * x.b)


def atan2(y, x):
    return Dual(math.atan2(y.a, x.a), (x.a * y.b - y.a * x.b) / (x.a * x.a + y.a * y.a))


def const(x, y):
    return (Dual(x), Dual(y))


def dyad(p, q, rp, rq, side):
    """The point at distance rp from p and rq from q, left of p->q for side +1, right for -1."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    d2 = dx * dx + dy * dy
    d = sqrt(d2)
    along = (rp * rp - rq * rq + d2) / (2 * d)
    across = sqrt(rp * rp - along * along)
    ux, uy = dx / d, dy / d
    return (p[0] + along * ux - side * across * uy, p[1] + along * uy + side * across * ux)


def fmt(x):
    return float(repr(x.a if isinstance(x, Dual) else x))


# ---------------------------------------------------------------------------------------------
# Body frames and file output.

def frame(points, kind):
    """Origin and angle of a body carrying the global points: a bar from its first to its second
    point (origin at their midpoint), a plate at the centroid along its first edge, a box at its
    first point, turned towards its second (a direction marker, not a joint point)."""
    p, q = points[0], points[1]
    angle = atan2(q[1] - p[1], q[0] - p[0])
    if kind == "box":
        return points[0][0], points[0][1], angle
    if kind == "plate":
        n = len(points)
        ox = sum((pt[0] for pt in points[1:]), points[0][0]) / n
        oy = sum((pt[1] for pt in points[1:]), points[0][1]) / n
    else:
        ox, oy = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
    return ox, oy, angle


def local(origin, angle, pt):
    c, s = math.cos(angle.a), math.sin(angle.a)
    dx, dy = pt[0].a - origin[0].a, pt[1].a - origin[1].a
    x, y = c * dx + s * dy, -s * dx + c * dy
    # 15 significant digits: 0.1, not 0.10000000000000006 (a change below 1e-16 m).
    return [0.0 if abs(v) < 1e-15 else float("%.15g" % v) for v in (x, y)]


def build(spec, pts, bodies, joints, rate):
    """bodies: (name, [point names], kind, mass, width or box size); joints: (type, name, body1,
    body2, point[, global axis of a translational joint])."""
    frames = {}
    out_bodies = []
    for name, names, kind, mass, width in bodies:
        gp = [pts[n] for n in names]
        ox, oy, angle = frame(gp, kind)
        frames[name] = (ox, oy, angle)
        local_pts = [local((ox, oy), angle, p) for p in gp]
        if kind == "plate":
            edges = [math.dist(local_pts[i], local_pts[(i + 1) % len(local_pts)]) for i in range(len(local_pts))]
            assert len(gp) == 3, "plates are triangles: inertia m (a^2 + b^2 + c^2) / 36"
            inertia = mass * sum(e * e for e in edges) / 36
            shape = {"type": "polygon", "points": [[round(v, 6) for v in p] for p in local_pts]}
        elif kind == "box":
            inertia = mass * (width[0] ** 2 + width[1] ** 2) / 12
            shape = {"type": "box", "size": list(width)}
        else:
            length = math.dist(local_pts[0], local_pts[1])
            inertia = mass * length * length / 12
            shape = {"type": "bar", "length": round(length, 12), "width": width}
        out_bodies.append({
            "name": name, "mass": mass, "inertia": inertia,
            "position": [fmt(ox), fmt(oy)], "angle": fmt(angle),
            "velocity": [ox.b * rate, oy.b * rate], "angular_velocity": angle.b * rate,
            "shape": shape})
    out_joints = []
    for kind, name, b1, b2, at, *axis in joints:
        p = pts[at]
        entry = {"name": name, "type": kind, "body1": b1, "body2": b2}
        entry["point1"] = [fmt(p[0]), fmt(p[1])] if b1 == "ground" else local(frames[b1][:2], frames[b1][2], p)
        entry["point2"] = local(frames[b2][:2], frames[b2][2], p)
        if axis:  # a translational joint along a global direction of the file's configuration
            for key, body in (("axis1", b1), ("axis2", b2)):
                a = frames[body][2].a if body != "ground" else 0.0
                c, s = math.cos(a), math.sin(a)
                v = [c * axis[0][0] + s * axis[0][1], -s * axis[0][0] + c * axis[0][1]]
                entry[key] = [0.0 if abs(x) < 1e-15 else x for x in v]
        out_joints.append(entry)
    spec["bodies"] = out_bodies
    spec["joints"] = out_joints
    return frames


def clean(x):
    """Whole numbers without a trailing .0, recursively."""
    if isinstance(x, float) and x.is_integer() and abs(x) < 2 ** 53:
        return int(x)
    if isinstance(x, list):
        return [clean(v) for v in x]
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()}
    return x


def one_line(entry):
    return json.dumps(entry, ensure_ascii=False)


def write(path, spec):
    """The layout of the hand-written examples: a body's fields one per line, a joint on two lines
    (names, then points and axes), a motion and the analysis on one line each."""
    spec = clean(spec)
    lists = {}
    for key in ("joints", "motions"):
        lines = []
        for entry in spec[key]:
            head = {k: v for k, v in entry.items() if k in ("name", "type", "body1", "body2", "joint", "function")}
            rest = {k: v for k, v in entry.items() if k not in head}
            text = one_line(head)
            if rest:
                text = text[:-1] + ",\n     " + one_line(rest)[1:]
            lines.append("    " + text)
        lists[key] = "[\n" + ",\n".join(lines) + "\n  ]"
        spec[key] = "@@" + key + "@@"
    analysis = one_line(spec.pop("analysis"))
    spec["analysis"] = "@@analysis@@"
    text = json.dumps(spec, indent=2, ensure_ascii=False)
    # Short numeric arrays on one line, like the hand-written examples.
    text = re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: "[" + ", ".join(s.strip() for s in m.group(1).split(",")) + "]", text)
    # Shapes and parameters on one line each.
    text = re.sub(r"\{\s+(\"type\"[^{}]*?)\s+\}", lambda m: "{" + " ".join(m.group(1).split()) + "}", text)
    text = re.sub(r"(\"parameters\": )\{([^{}]*?)\}", lambda m: m.group(1) + "{" + " ".join(m.group(2).split()) + "}", text)
    text = text.replace("[ [", "[[").replace("] ]", "]]")
    for key, value in lists.items():
        text = text.replace('"@@%s@@"' % key, value)
    text = text.replace('"@@analysis@@"', analysis)
    with open(path, "w") as f:
        f.write(text + "\n")


def bar_mass(length):
    return round(2.0 * length, 6)  # 2 kg per metre of bar


def header(name, description, parameters):
    return {"reuleaux": 1, "name": name, "description": description, "dimension": 2,
            "parameters": parameters, "gravity": [0, -9.81]}


def finish(spec, motion, end_time, output_step=0.005):
    spec["motions"] = [motion]
    spec["analysis"] = {"type": "kinematics", "end_time": end_time, "step": 0.001,
                        "output_step": output_step, "tolerance": 1e-10}
    return spec


def bars(pts, names, width):
    """Bodies that are bars between two named points: (body, first point, second point)."""
    out = []
    for body, p, q in names:
        length = math.dist((pts[p][0].a, pts[p][1].a), (pts[q][0].a, pts[q][1].a))
        out.append((body, [p, q], "bar", bar_mass(length), width))
    return out


# ---------------------------------------------------------------------------------------------
# Jansen's leg: Theo Jansen's "holy numbers" (strandbeest.com, "The Legsystem"), 1 unit = 1 cm.

JANSEN = dict(a=38.0, b=41.5, c=39.3, d=40.1, e=55.8, f=39.4, g=36.7, h=65.7, i=49.0, j=50.0,
              k=61.9, l=7.8, m=15.0)


def jansen_points(theta):
    n = {key: v / 100 for key, v in JANSEN.items()}
    Z = const(0, 0)                            # crank axle
    Y = const(-n["a"], -n["l"])                # the frame's second pivot
    X = (n["m"] * cos(theta), n["m"] * sin(theta))   # crank pin
    W = dyad(X, Y, n["j"], n["b"], -1)         # upper joint (above)
    V = dyad(W, Y, n["e"], n["d"], -1)         # upper triangle's far corner (left)
    U = dyad(X, Y, n["k"], n["c"], +1)         # lower joint (below)
    T = dyad(V, U, n["f"], n["g"], -1)         # knee (left)
    S = dyad(T, U, n["h"], n["i"], -1)         # foot (below)
    return dict(Z=Z, Y=Y, X=X, W=W, V=V, U=U, T=T, S=S)


def jansen():
    theta0 = 0.0
    pts = jansen_points(Dual(theta0, 1.0))
    desc = ("One leg of Theo Jansen's Strandbeest (kinematics): the crank m turns about the axle "
            "at the origin at 1 rev/s; the frame's second pivot is a = 0.38 m to the left and "
            "l = 0.078 m below it. Jansen's 'holy numbers' (strandbeest.com, The Legsystem), in cm: "
            "a 38, b 41.5, c 39.3, d 40.1, e 55.8, f 39.4, g 36.7, h 65.7, i 49, j 50, k 61.9, "
            "l 7.8, m 15. Links j and k join the crank pin to the upper rocker triangle (b, d, e) "
            "and to the rocker c; f and the foot triangle (g, h, i) carry the foot. The foot's path "
            "has a flat bottom: for 110 deg of crank rotation (crank from 300 deg through 0 to 50 deg) "
            "the foot stays within 3.9 mm of its lowest height (y = -0.91834 m) while it moves "
            "0.419 m in +x - the part of the stride that touches the ground. Watch the foot (the "
            "lowest corner of the foot triangle) in the animation, and the crank torque "
            "crank_drive.effort.")
    params = {"l_" + key: v / 100 for key, v in JANSEN.items()}
    spec = header("Jansen's linkage (one Strandbeest leg)", desc, params)
    bodies = bars(pts, [("crank", "Z", "X"), ("link_j", "X", "W"), ("link_k", "X", "U"),
                        ("link_c", "Y", "U"), ("link_f", "V", "T")], 0.02)
    bodies.insert(2, ("rocker_bde", ["Y", "W", "V"], "plate", 0.5, None))
    bodies.append(("foot", ["U", "T", "S"], "plate", 0.6, None))
    joints = [("revolute", "axle", "ground", "crank", "Z"),
              ("revolute", "crank_j", "crank", "link_j", "X"),
              ("revolute", "crank_k", "crank", "link_k", "X"),
              ("revolute", "j_rocker", "link_j", "rocker_bde", "W"),
              ("revolute", "rocker_pivot", "ground", "rocker_bde", "Y"),
              ("revolute", "c_pivot", "ground", "link_c", "Y"),
              ("revolute", "k_c", "link_k", "link_c", "U"),
              ("revolute", "c_foot", "link_c", "foot", "U"),
              ("revolute", "rocker_f", "rocker_bde", "link_f", "V"),
              ("revolute", "knee", "link_f", "foot", "T")]
    build(spec, pts, bodies, joints, 2 * math.pi)
    return finish(spec, {"name": "crank_drive", "joint": "axle", "function": "2*pi*t"}, 2)


def jansen_numbers():
    """The foot's lowest height and its spread over the ground-contact crank range."""
    feet = [jansen_points(Dual(math.radians(k / 10)))["S"] for k in range(-600, 501)]
    ys, xs = [f[1].a for f in feet], [f[0].a for f in feet]
    print("jansen: crank -60..50 deg: foot y %.6f..%.6f (spread %.3f mm), x %.4f..%.4f" %
          (min(ys), max(ys), 1000 * (max(ys) - min(ys)), min(xs), max(xs)))


# ---------------------------------------------------------------------------------------------
# Watt II six-bar: two four-bar loops in series; the first loop's rocker is a ternary link whose
# second arm drives the second loop.

WATT = dict(crank=0.1, coupler=0.35, rocker=0.3, ground=0.4, arm=0.15, arm_angle=-100.0,
            coupler2=0.3, output=0.2, o6x=0.65, o6y=-0.15)


def watt_points(theta):
    w = WATT
    O2, O4, O6 = const(0, 0), const(w["ground"], 0), const(w["o6x"], w["o6y"])
    A = (w["crank"] * cos(theta), w["crank"] * sin(theta))
    B = dyad(A, O4, w["coupler"], w["rocker"], +1)
    arm = atan2(B[1] - O4[1], B[0] - O4[0]) + math.radians(w["arm_angle"])
    C = (O4[0] + w["arm"] * cos(arm), O4[1] + w["arm"] * sin(arm))
    D = dyad(C, O6, w["coupler2"], w["output"], +1)
    return dict(O2=O2, O4=O4, O6=O6, A=A, B=B, C=C, D=D)


def watt_output_angle(theta):
    p = watt_points(Dual(theta))
    return math.atan2(p["D"][1].a - p["O6"][1].a, p["D"][0].a - p["O6"][0].a)


def watt():
    pts = watt_points(Dual(0.0, 1.0))
    lo = min(watt_output_angle(math.radians(k / 10)) for k in range(3600))
    hi = max(watt_output_angle(math.radians(k / 10)) for k in range(3600))
    desc = ("Watt II six-bar (kinematics): two four-bar loops in series. Loop 1 is the crank-rocker "
            "of four_bar.rlx (ground pivots O2 (0, 0) and O4 (0.4, 0); crank 0.1 m, coupler 0.35 m, "
            "rocker 0.3 m); its rocker is a ternary link with a second arm of 0.15 m at -100 deg "
            "from the rocker, which drives loop 2: coupler2 0.3 m to the output link 0.2 m pivoted "
            "at O6 (0.65, -0.15). The crank turns at 1 rev/s from 0 deg; DOF 1 without the drive. "
            "The output swings between %.3f and %.3f deg (%.3f deg at crank 0, %.3f deg at crank "
            "90 deg). Look at output.angle against crank.angle, and crank_drive.effort." %
            (math.degrees(lo), math.degrees(hi), math.degrees(watt_output_angle(0.0)),
             math.degrees(watt_output_angle(math.pi / 2))))
    spec = header("Watt II six-bar", desc, {"l_" + k: v for k, v in WATT.items()})
    bodies = bars(pts, [("crank", "O2", "A"), ("coupler", "A", "B"), ("coupler2", "C", "D"),
                        ("output", "O6", "D")], 0.02)
    bodies.insert(2, ("rocker", ["O4", "B", "C"], "plate", 0.6, None))
    joints = [("revolute", "crank_pin", "ground", "crank", "O2"),
              ("revolute", "crank_coupler", "crank", "coupler", "A"),
              ("revolute", "coupler_rocker", "coupler", "rocker", "B"),
              ("revolute", "rocker_pin", "ground", "rocker", "O4"),
              ("revolute", "rocker_coupler2", "rocker", "coupler2", "C"),
              ("revolute", "coupler2_output", "coupler2", "output", "D"),
              ("revolute", "output_pin", "ground", "output", "O6")]
    build(spec, pts, bodies, joints, 2 * math.pi)
    return finish(spec, {"name": "crank_drive", "joint": "crank_pin", "function": "2*pi*t"}, 2)


# ---------------------------------------------------------------------------------------------
# Whitworth quick-return: the crank pin slides in a slotted lever that turns fully about O4, a
# distance d above the crank axis (d < r); a rod from the lever's far end drives the ram along the
# horizontal line through O4. The ram's dead centres are where the lever is horizontal, i.e. the
# crank pin on y = d: crank angles asin(d/r) and pi - asin(d/r), so the strokes take
# pi + 2 asin(d/r) and pi - 2 asin(d/r) of crank rotation.

WHIT = dict(r=0.1, d=0.05, lever=0.12, rod=0.3)


def whitworth_points(theta):
    w = WHIT
    O2, O4 = const(0, 0), const(0, w["d"])
    A = (w["r"] * cos(theta), w["r"] * sin(theta))
    dist = sqrt((A[0] - O4[0]) * (A[0] - O4[0]) + (A[1] - O4[1]) * (A[1] - O4[1]))
    ux, uy = (A[0] - O4[0]) / dist, (A[1] - O4[1]) / dist
    P = (O4[0] - w["lever"] * ux, O4[1] - w["lever"] * uy)   # lever end, opposite the slot
    E = (O4[0] + (w["r"] + w["d"]) * ux, O4[1] + (w["r"] + w["d"]) * uy)  # slot end
    Qx = P[0] + sqrt(w["rod"] * w["rod"] - (P[1] - O4[1]) * (P[1] - O4[1]))
    Q = (Qx, O4[1])
    return dict(O2=O2, O4=O4, A=A, P=P, E=E, Q=Q, A_dir=(A[0] + ux, A[1] + uy),
                Q_dir=(Q[0] + 1, Q[1]))


def whitworth():
    w = WHIT
    pts = whitworth_points(Dual(0.0, 1.0))
    alpha = math.asin(w["d"] / w["r"])
    ratio = (math.pi + 2 * alpha) / (math.pi - 2 * alpha)
    stroke = 2 * w["lever"]
    desc = ("Whitworth quick-return (kinematics). The crank (r = 0.1 m) turns about the origin at "
            "1 rev/s from 0 deg; its pin carries a block sliding in a slotted lever that turns "
            "fully about O4 = (0, d), d = 0.05 m above the crank axis (d < r); a rod of 0.3 m from "
            "the lever's far end (0.12 m beyond O4) drives the ram along the line y = d. The ram "
            "stops where the lever is horizontal, i.e. where the crank pin crosses y = d: at crank "
            "angles asin(d/r) = 30 deg and 150 deg. The stroke is 2 x 0.12 = %.2f m; the forward "
            "(cutting) stroke takes pi + 2 asin(d/r) = 240 deg of crank rotation (2/3 s) and the "
            "return pi - 2 asin(d/r) = 120 deg (1/3 s): time ratio %.1f. Look at ram.x and ram.vx "
            "over two turns, the lever's angle and the block's travel in the slot."
            % (stroke, ratio))
    spec = header("Whitworth quick-return", desc, {"l_" + k: v for k, v in WHIT.items()})
    # The lever first, so that the crank and the block are drawn over it.
    bodies = bars(pts, [("lever", "P", "E"), ("crank", "O2", "A"), ("rod", "P", "Q")], 0.02)
    bodies.insert(2, ("block", ["A", "A_dir"], "box", 0.2, [0.05, 0.025]))
    bodies.append(("ram", ["Q", "Q_dir"], "box", 1.0, [0.12, 0.04]))
    joints = [("revolute", "crank_pin", "ground", "crank", "O2"),
              ("revolute", "crank_block", "crank", "block", "A"),
              ("translational", "slot", "lever", "block", "A", (pts["A_dir"][0].a - pts["A"][0].a,
                                                              pts["A_dir"][1].a - pts["A"][1].a)),
              ("revolute", "lever_pin", "ground", "lever", "O4"),
              ("revolute", "lever_rod", "lever", "rod", "P"),
              ("revolute", "rod_ram", "rod", "ram", "Q"),
              ("translational", "ram_guide", "ground", "ram", "Q", (1.0, 0.0))]
    build(spec, pts, bodies, joints, 2 * math.pi)
    print("whitworth: alpha %.12f rad, time ratio %.12f, stroke %.6f" % (alpha, ratio, stroke))
    return finish(spec, {"name": "crank_drive", "joint": "crank_pin", "function": "2*pi*t"}, 2)


# ---------------------------------------------------------------------------------------------
# Peaucellier-Lipkin inverter: O fixed, the crank O'P (O' at (b, 0), |O'P| = b) keeps P on a
# circle through O; OA = OB = l, the rhombus PAQB has side s, so OP * OQ = l^2 - s^2 and Q moves on
# the line x = (l^2 - s^2) / (2 b).

PEAU = dict(b=0.15, l=0.4, s=0.15, swing=50.0)


def peaucellier_points(phi):
    p = PEAU
    O, Oc = const(0, 0), const(p["b"], 0)
    P = (Oc[0] + p["b"] * cos(phi), Oc[1] + p["b"] * sin(phi))
    A = dyad(O, P, p["l"], p["s"], +1)
    B = dyad(O, P, p["l"], p["s"], -1)
    Q = (A[0] + B[0] - P[0], A[1] + B[1] - P[1])
    return dict(O=O, Oc=Oc, P=P, A=A, B=B, Q=Q)


def peaucellier():
    p = PEAU
    swing = math.radians(p["swing"])
    pts = peaucellier_points(Dual(0.0, 1.0))
    k = p["l"] ** 2 - p["s"] ** 2
    top = peaucellier_points(Dual(swing))["Q"][1].a
    desc = ("Peaucellier-Lipkin inverter (kinematics): an exact straight-line linkage. O is fixed "
            "at the origin; the crank (b = 0.15 m) turns about O' = (0.15, 0), so its pin P runs "
            "on a circle through O. Two links of l = 0.4 m join O to the rhombus corners A and B; "
            "the rhombus P-A-Q-B has sides s = 0.15 m. Then O, P, Q are collinear with "
            "OP x OQ = l^2 - s^2 = %.4f m^2 (inversion in a circle), so Q moves on the straight "
            "line x = (l^2 - s^2)/(2b) = %.6f m. The crank cannot turn fully (P would reach O): it "
            "swings +-50 deg about the horizontal, 50 deg sin(2 pi t), and Q runs between "
            "y = -%.6f and %.6f m. Q (the pin of rh_aq and rh_bq) is at 2 (rh_aq - link_a) in x "
            "and y: plot 2 (rh_aq.x - link_a.x), constant to rounding." % (k, k / (2 * p["b"]), top, top))
    spec = header("Peaucellier-Lipkin inverter", desc, dict(PEAU))
    bodies = bars(pts, [("crank", "Oc", "P"), ("link_a", "O", "A"), ("link_b", "O", "B"),
                        ("rh_pa", "P", "A"), ("rh_pb", "P", "B"), ("rh_aq", "A", "Q"),
                        ("rh_bq", "B", "Q")], 0.015)
    joints = [("revolute", "crank_pin", "ground", "crank", "Oc"),
              ("revolute", "pivot_a", "ground", "link_a", "O"),
              ("revolute", "pivot_b", "ground", "link_b", "O"),
              ("revolute", "p_a", "crank", "rh_pa", "P"),
              ("revolute", "p_b", "crank", "rh_pb", "P"),
              ("revolute", "a_pa", "link_a", "rh_pa", "A"),
              ("revolute", "a_aq", "link_a", "rh_aq", "A"),
              ("revolute", "b_pb", "link_b", "rh_pb", "B"),
              ("revolute", "b_bq", "link_b", "rh_bq", "B"),
              ("revolute", "q_pin", "rh_aq", "rh_bq", "Q")]
    build(spec, pts, bodies, joints, swing * 2 * math.pi)
    print("peaucellier: line x = %.15f, Q.y amplitude %.12f" % (k / (2 * p["b"]), top))
    return finish(spec, {"name": "crank_drive", "joint": "crank_pin",
                         "function": "swing*deg*sin(2*pi*t)"}, 2)


# ---------------------------------------------------------------------------------------------
# Chebyshev's lambda and Hoeckens' linkage: the crank-rocker 1 : 2.5 : 2.5 : 2 (crank, coupler to
# the rocker pin, rocker, ground) with the coupler point P on the coupler's extension, 5 units from
# the crank pin (the rocker pin C is the midpoint of BP). Both are cognates of Chebyshev's
# straight-line linkage; P's path has a near-straight part parallel to the ground line.

def lambda_points(theta, unit, flip):
    """Crank pivot at the origin, rocker pivot at (2 unit, 0); flip = -1 mirrors in the x axis."""
    O2, O4 = const(0, 0), const(2 * unit, 0)
    B = (unit * cos(theta), unit * sin(theta))
    C = dyad(B, O4, 2.5 * unit, 2.5 * unit, flip)
    P = (2 * C[0] - B[0], 2 * C[1] - B[1])
    return dict(O2=O2, O4=O4, B=B, C=C, P=P)


def straight_part(unit, flip, a0, a1):
    ys = [lambda_points(Dual(math.radians(k / 10)), unit, flip)["P"] for k in range(a0 * 10, a1 * 10 + 1)]
    y = [p[1].a for p in ys]
    x = [p[0].a for p in ys]
    return min(y), max(y), min(x), max(x)


def four_bar_with_point(name, desc, unit, flip, theta0, crank_width):
    pts = lambda_points(Dual(theta0, 1.0), unit, flip)
    spec = header(name, desc, {"unit": unit})
    bodies = bars(pts, [("crank", "O2", "B"), ("coupler", "B", "P"), ("rocker", "O4", "C")],
                  crank_width)
    joints = [("revolute", "crank_pin", "ground", "crank", "O2"),
              ("revolute", "crank_coupler", "crank", "coupler", "B"),
              ("revolute", "coupler_rocker", "coupler", "rocker", "C"),
              ("revolute", "rocker_pin", "ground", "rocker", "O4")]
    build(spec, pts, bodies, joints, 2 * math.pi)
    return finish(spec, {"name": "crank_drive", "joint": "crank_pin", "function": "2*pi*t"}, 2)


def chebyshev_lambda():
    unit = 0.1
    lo, hi, x0, x1 = straight_part(unit, +1, LAMBDA_RANGE[0], LAMBDA_RANGE[1])
    desc = ("Chebyshev's lambda linkage (kinematics), shaped like the letter lambda: crank "
            "0.1 m about the origin, rocker 0.25 m about (0.2, 0), coupler 0.5 m from the crank "
            "pin with the rocker pinned at its midpoint: proportions crank : coupler-to-rocker-pin "
            ": rocker : ground = 1 : 2.5 : 2.5 : 2 (Chebyshev 1878, the plantigrade machine's "
            "leg). The coupler's tip P (the lambda's tip) draws a near-straight line parallel to "
            "the ground line: for crank angles %d to %d deg (%d deg, half a turn) P "
            "stays between y = %.6f and %.6f m (a band of %.3f mm) while it moves %.4f m along x. "
            "The crank turns at 1 rev/s from 0 deg. P is at 2 (coupler - crank) in x and y (the "
            "coupler's centre is the rocker pin, the crank's centre half the crank pin)." %
            (LAMBDA_RANGE[0], LAMBDA_RANGE[1], LAMBDA_RANGE[1] - LAMBDA_RANGE[0], lo, hi,
             1000 * (hi - lo), x1 - x0))
    print("lambda: crank %d..%d: P.y %.9f..%.9f band %.6f mm, x %.6f..%.6f" %
          (LAMBDA_RANGE[0], LAMBDA_RANGE[1], lo, hi, 1000 * (hi - lo), x0, x1))
    return four_bar_with_point("Chebyshev lambda linkage", desc, unit, +1, 0.0, 0.015)


def hoeckens():
    unit = 0.1
    lo, hi, x0, x1 = straight_part(unit, -1, HOECKENS_RANGE[0], HOECKENS_RANGE[1])
    vx = [lambda_points(Dual(math.radians(k / 10), 1.0), unit, -1)["P"][0].b * 2 * math.pi
          for k in range(HOECKENS_STEADY[0] * 10, HOECKENS_STEADY[1] * 10 + 1)]
    speeds = (min(vx), max(vx))
    print("hoeckens: crank %d..%d: P.vx %.9f..%.9f" % (*HOECKENS_STEADY, *speeds))
    desc = ("Hoeckens' straight-line linkage (kinematics; Karl Hoecken 1926): the crank-rocker "
            "1 : 2 : 2.5 : 2.5 (crank 0.1 m, ground 0.2 m, rocker 0.25 m, coupler 0.25 m to the "
            "rocker pin, extended to the tracing point P 0.5 m from the crank pin), assembled "
            "with P below the ground line, as in walking machines: P's path is a D with a flat "
            "bottom along which P moves at nearly constant speed. For crank angles %d to %d deg "
            "P stays between y = %.6f and %.6f m (a band of %.3f mm) while it moves %.4f m along "
            "x; from %d to %d deg its speed stays between %.4f and %.4f m/s. It is the mirror image of the Chebyshev lambda (both are cognates of Chebyshev's "
            "straight-line linkage). The crank turns at 1 rev/s from 0 deg. P is at 2 (coupler - "
            "crank) in x and y; its velocity along x is 2 (coupler.vx - crank.vx)." % (HOECKENS_RANGE[0], HOECKENS_RANGE[1], lo, hi,
                                       1000 * (hi - lo), x1 - x0, *HOECKENS_STEADY, *speeds))
    print("hoeckens: crank %d..%d: P.y %.9f..%.9f band %.6f mm, x %.6f..%.6f" %
          (HOECKENS_RANGE[0], HOECKENS_RANGE[1], lo, hi, 1000 * (hi - lo), x0, x1))
    return four_bar_with_point("Hoeckens linkage", desc, unit, -1, 0.0, 0.015)


LAMBDA_RANGE = (90, 270)
HOECKENS_RANGE = (90, 270)
HOECKENS_STEADY = (120, 240)


if __name__ == "__main__":
    write("examples/jansen_leg.rlx", jansen())
    jansen_numbers()
    write("examples/watt_six_bar.rlx", watt())
    write("examples/whitworth_quick_return.rlx", whitworth())
    write("examples/peaucellier_lipkin.rlx", peaucellier())
    write("examples/chebyshev_lambda.rlx", chebyshev_lambda())
    write("examples/hoeckens.rlx", hoeckens())
