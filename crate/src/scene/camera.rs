//! Looking at the scene: an orthographic projection onto the screen (the plane seen
//! from above, or space from a direction the user orbits), and the fit of what is
//! drawn into a viewport with equal scales on both axes.

use core::f64::consts::PI;

pub use crate::scenario::Projection;

/// An orthographic camera. In space it looks from the direction at azimuth `yaw`
/// (about z, from x) and `elevation` above the xy plane, with z up on the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Plane or space.
    pub projection: Projection,
    /// Azimuth of the viewer, radians.
    pub yaw: f64,
    /// Elevation of the viewer, radians (clamped to ±89°).
    pub elevation: f64,
}

/// The highest elevation: straight down would lose the screen's up direction.
const MAX_ELEVATION: f64 = 89.0 * PI / 180.0;

impl Camera {
    /// The default view: the plane from above; space from the front right, 30° up
    /// (the viewer at azimuth −60°: x runs to the right and away).
    pub fn new(projection: Projection) -> Camera {
        Camera { projection, yaw: -PI / 3.0, elevation: PI / 6.0 }
    }

    /// Turns the view (space only): `d_yaw` about the vertical, `d_elevation` up.
    pub fn orbit(&mut self, d_yaw: f64, d_elevation: f64) {
        if self.projection == Projection::Space {
            let turned = libm::fmod(self.yaw + d_yaw, 2.0 * PI);
            self.yaw = if turned < 0.0 { turned + 2.0 * PI } else { turned };
            self.elevation = (self.elevation + d_elevation).clamp(-MAX_ELEVATION, MAX_ELEVATION);
        }
    }

    /// `(x, y, depth)`: screen coordinates (x right, y up, world units) and the
    /// distance towards the viewer (larger is nearer).
    pub fn project(&self, p: [f64; 3]) -> [f64; 3] {
        match self.projection {
            Projection::Plane => p,
            Projection::Space => {
                let (sy, cy) = libm::sincos(self.yaw);
                let (se, ce) = libm::sincos(self.elevation);
                // Towards the viewer d, screen right r = ẑ × d / |…|, screen up u = d × r.
                let d = [ce * cy, ce * sy, se];
                let r = [-sy, cy, 0.0];
                let u = [-se * cy, -se * sy, ce];
                let dot = |a: [f64; 3]| a[0] * p[0] + a[1] * p[1] + a[2] * p[2];
                [dot(r), dot(u), dot(d)]
            }
        }
    }
}

impl Camera {
    /// The point of the ground (z = 0) seen at screen point `(x, y)`; in the plane,
    /// the point itself. Seen from almost level, the ground is taken at 3° up.
    pub fn ground_under(&self, x: f64, y: f64) -> (f64, f64) {
        match self.projection {
            Projection::Plane => (x, y),
            Projection::Space => {
                let (sy, cy) = libm::sincos(self.yaw);
                let se = libm::sin(self.elevation);
                let se = if libm::fabs(se) < 0.05 { libm::copysign(0.05, se) } else { se };
                // p·r = x and p·u = y with p = (a, b, 0): along the view, a cos ψ + b sin ψ = −y / sin ε.
                let along = -y / se;
                (-sy * x + cy * along, cy * x + sy * along)
            }
        }
    }
}

/// A box in screen coordinates (world units), grown point by point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Least x, greatest x.
    pub x: (f64, f64),
    /// Least y, greatest y.
    pub y: (f64, f64),
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds { x: (f64::INFINITY, f64::NEG_INFINITY), y: (f64::INFINITY, f64::NEG_INFINITY) }
    }
}

impl Bounds {
    /// Includes a point (non-finite ones are ignored).
    pub fn include(&mut self, x: f64, y: f64) {
        if x.is_finite() && y.is_finite() {
            self.x = (self.x.0.min(x), self.x.1.max(x));
            self.y = (self.y.0.min(y), self.y.1.max(y));
        }
    }

    /// Whether no point was included.
    pub fn is_empty(&self) -> bool {
        self.x.0 > self.x.1
    }
}

/// Screen coordinates to pixels: equal scales, centred, y down.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Pixels per world unit.
    pub scale: f64,
    /// The pixel of screen point (0, 0).
    pub offset: (f64, f64),
}

impl Fit {
    /// Fits `bounds` into `width × height` pixels with `margin` pixels all round; a
    /// box thinner than a tenth of the other side (a particle on a line, one point)
    /// gets that much room around it, so nothing is magnified without end.
    pub fn new(bounds: &Bounds, width: f64, height: f64, margin: f64) -> Fit {
        let (bx, by) = if bounds.is_empty() { ((-1.0, 1.0), (-1.0, 1.0)) } else { (bounds.x, bounds.y) };
        let (w, h) = (bx.1 - bx.0, by.1 - by.0);
        let least = 0.1 * w.max(h).max(1e-9);
        let pad = |lo: f64, hi: f64| {
            let grow = (least - (hi - lo)).max(0.0) / 2.0;
            (lo - grow, hi + grow)
        };
        let (bx, by) = (pad(bx.0, bx.1), pad(by.0, by.1));
        let room = ((width - 2.0 * margin).max(1.0), (height - 2.0 * margin).max(1.0));
        let scale = (room.0 / (bx.1 - bx.0)).min(room.1 / (by.1 - by.0));
        let centre = ((bx.0 + bx.1) / 2.0, (by.0 + by.1) / 2.0);
        Fit { scale, offset: (width / 2.0 - scale * centre.0, height / 2.0 + scale * centre.1) }
    }

    /// `bounds` centred in `width × height` pixels at a given `scale` (a camera that
    /// follows the motion at a constant scale).
    pub fn centred(bounds: &Bounds, scale: f64, width: f64, height: f64) -> Fit {
        let centre = if bounds.is_empty() {
            (0.0, 0.0)
        } else {
            ((bounds.x.0 + bounds.x.1) / 2.0, (bounds.y.0 + bounds.y.1) / 2.0)
        };
        Fit { scale, offset: (width / 2.0 - scale * centre.0, height / 2.0 + scale * centre.1) }
    }

    /// The pixel of a screen point.
    pub fn pixel(&self, x: f64, y: f64) -> (f64, f64) {
        (self.offset.0 + self.scale * x, self.offset.1 - self.scale * y)
    }

    /// Zooms by `factor` about pixel `(px, py)`, which stays where it is.
    pub fn zoom(&mut self, factor: f64, px: f64, py: f64) {
        self.offset = (px - factor * (px - self.offset.0), py - factor * (py - self.offset.1));
        self.scale *= factor;
    }

    /// Moves the picture by `(dx, dy)` pixels.
    pub fn pan(&mut self, dx: f64, dy: f64) {
        self.offset = (self.offset.0 + dx, self.offset.1 + dy);
    }
}
