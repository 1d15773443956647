#!/usr/bin/env python3
"""
Independent high-precision oracle for |ball ∩ box| (test/query/ball-box-oracle.json).

Reads JSON lines on stdin, each {"r": radius, "c": [sphere centre], "b": [box centre],
"h": [half extents], "q": [x, y, z, w] box rotation}, the numbers being the exact doubles the
test passes; prints one JSON line per case: {"volume": "<40 digits>", "error": "<bound>"}.

Method (not the library's): the sphere centre in the box frame p = R(q/|q|)ᵀ (c − b) in 60-digit
arithmetic (mpmath), then V = ∫ A(z) dz over the slab, A(z) the area of the disc of radius
√(r² − z²) inside the rectangle [−hx − px, hx − px] × [−hy − py, hy − py], by tanh–sinh
quadrature (mpmath.quad) split at every z where the circle passes a rectangle edge or corner.
A(z) by inclusion–exclusion of disc ∩ quadrant areas, which cancels harmlessly at 60 digits.
"""
import json
import sys

import mpmath as mp

mp.mp.dps = 60


def seg(b, rho):
    """Area of the disc of radius rho beyond the line y = b (any b)."""
    if b >= rho:
        return mp.mpf(0)
    if b <= -rho:
        return mp.pi * rho * rho
    if b < 0:
        return mp.pi * rho * rho - seg(-b, rho)
    return rho * rho * mp.acos(b / rho) - b * mp.sqrt(rho * rho - b * b)


def quad_pos(a, b, rho):
    """Area of the disc beyond x = a and y = b, a, b >= 0."""
    if a * a + b * b >= rho * rho:
        return mp.mpf(0)
    return (rho * rho * (mp.acos(a / rho) + mp.acos(b / rho) - mp.pi / 2) / 2
            - a * mp.sqrt(rho * rho - a * a) / 2 - b * mp.sqrt(rho * rho - b * b) / 2 + a * b)


def quadrant(a, b, rho):
    """Area of the disc beyond x = a and y = b, any signs."""
    if a < 0:
        return seg(b, rho) - quadrant(-a, b, rho)
    if b < 0:
        return seg(a, rho) - quadrant(a, -b, rho)
    return quad_pos(a, b, rho)


def volume(r, p, h):
    r = mp.mpf(r)
    lo = [-mp.mpf(h[i]) - p[i] for i in range(3)]
    hi = [mp.mpf(h[i]) - p[i] for i in range(3)]
    z0 = max(lo[2], -r)
    z1 = min(hi[2], r)
    if not (z0 < z1):
        return mp.mpf(0), mp.mpf(0)

    def area(z):
        rho2 = r * r - z * z
        if rho2 <= 0:
            return mp.mpf(0)
        rho = mp.sqrt(rho2)
        return (quadrant(lo[0], lo[1], rho) - quadrant(hi[0], lo[1], rho)
                - quadrant(lo[0], hi[1], rho) + quadrant(hi[0], hi[1], rho))

    cuts = {z0, z1, mp.mpf(0)}
    for x in (lo[0], hi[0]):
        for y in (lo[1], hi[1]):
            for d2 in (x * x, y * y, x * x + y * y):
                if d2 < r * r:
                    z = mp.sqrt(r * r - d2)
                    cuts.add(z)
                    cuts.add(-z)
    pts = sorted(c for c in cuts if z0 <= c <= z1)
    v, err = mp.quad(area, pts, error=True)
    return v, err


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        case = json.loads(line)
        qx, qy, qz, qw = (mp.mpf(x) for x in case["q"])
        n = mp.sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
        qx, qy, qz, qw = qx / n, qy / n, qz / n, qw / n
        # Rotation matrix of the unit quaternion; p = Rᵀ (c − b).
        R = [
            [1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw)],
            [2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw)],
            [2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy)],
        ]
        d = [mp.mpf(case["c"][i]) - mp.mpf(case["b"][i]) for i in range(3)]
        p = [sum(R[j][i] * d[j] for j in range(3)) for i in range(3)]
        v, err = volume(case["r"], p, case["h"])
        print(json.dumps({"volume": mp.nstr(v, 40), "error": mp.nstr(err + abs(v) * mp.mpf(10) ** -45, 5)}))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
