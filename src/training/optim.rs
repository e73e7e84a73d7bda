//! What `lancer train` and `lancer tune` share to fit their weights: the logistic
//! function that turns a score into an expected result, and Adam.

/// The numbers Adam works in: `f32` for networks, `f64` for the evaluation's weights.
pub trait Real:
    Copy
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
{
    fn of(x: f64) -> Self;
    fn sqrt(self) -> Self;
}

impl Real for f32 {
    fn of(x: f64) -> f32 {
        x as f32
    }
    fn sqrt(self) -> f32 {
        f32::sqrt(self)
    }
}

impl Real for f64 {
    fn of(x: f64) -> f64 {
        x
    }
    fn sqrt(self) -> f64 {
        f64::sqrt(self)
    }
}

/// The logistic function: the expected result of a score `x` (in the caller's unit).
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// [`sigmoid`] in `f32`.
pub fn sigmoid32(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Adam (Kingma and Ba): each weight moves by its gradient's running mean over the
/// root of its running square, both corrected for their start at zero.
pub struct Adam<T> {
    m: Vec<T>,
    v: Vec<T>,
    /// Steps taken.
    t: i32,
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPS: f64 = 1e-8;

impl<T: Real> Adam<T> {
    /// Moments at zero for `n` weights.
    pub fn new(n: usize) -> Adam<T> {
        Adam {
            m: vec![T::of(0.0); n],
            v: vec![T::of(0.0); n],
            t: 0,
        }
    }

    /// Starts a step: the steps' count goes up and the corrections of the moments'
    /// start are returned for [`Adam::update`].
    pub fn begin(&mut self) -> (T, T) {
        self.t += 1;
        (
            T::of(1.0 / (1.0 - BETA1.powi(self.t))),
            T::of(1.0 / (1.0 - BETA2.powi(self.t))),
        )
    }

    /// Moves the weights `w`, the Adam weights from `offset` on, by their gradients
    /// `g` at step size `lr` in the step `begin` started, each kept within `±clip`.
    pub fn update(&mut self, w: &mut [T], g: &[T], offset: usize, lr: T, clip: T, c: (T, T)) {
        let (b1, b2, eps) = (T::of(BETA1), T::of(BETA2), T::of(EPS));
        let (one, lo) = (T::of(1.0), T::of(0.0) - clip);
        let m = &mut self.m[offset..offset + w.len()];
        let v = &mut self.v[offset..offset + w.len()];
        for i in 0..w.len() {
            let gi = g[i];
            m[i] = b1 * m[i] + (one - b1) * gi;
            v[i] = b2 * v[i] + (one - b2) * gi * gi;
            let step = lr * (m[i] * c.0) / ((v[i] * c.1).sqrt() + eps);
            let x = w[i] - step;
            w[i] = if x > clip {
                clip
            } else if x < lo {
                lo
            } else {
                x
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adam_finds_the_bottom_of_a_bowl_and_keeps_to_its_clip() {
        // Minimise (w0 - 3)^2 + (w1 + 2)^2 with w1 clipped to ±1.
        let mut w = [0.0f64, 0.0];
        let mut adam = Adam::new(2);
        for _ in 0..2000 {
            let g = [2.0 * (w[0] - 3.0), 2.0 * (w[1] + 2.0)];
            let c = adam.begin();
            adam.update(&mut w[..1], &g[..1], 0, 0.05, 10.0, c);
            adam.update(&mut w[1..], &g[1..], 1, 0.05, 1.0, c);
        }
        assert!((w[0] - 3.0).abs() < 1e-3, "{w:?}");
        assert_eq!(w[1], -1.0);
        assert!((sigmoid(0.0) - 0.5).abs() < 1e-12 && sigmoid(40.0) > 0.999_999);
        assert_eq!(sigmoid32(0.0), 0.5);
    }
}
