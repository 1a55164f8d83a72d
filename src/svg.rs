//! A small SVG line chart: a few series of points, optional markers, a
//! title, labelled axes with round tick values, grid lines, a zero line and
//! a legend. Enough for an evaluation graph; no dependencies.

use std::fmt::Write as _;

/// One line of the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    /// Stroke colour (`#1f77b4`).
    pub color: String,
    pub dashed: bool,
    pub points: Vec<(f64, f64)>,
}

/// A highlighted point with a label (shown as a tooltip).
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub x: f64,
    pub y: f64,
    pub color: String,
    pub label: String,
}

/// A chart to draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    pub markers: Vec<Marker>,
    /// The x axis range; from the data when `None`.
    pub x_range: Option<(f64, f64)>,
}

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 480.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;

/// A round step giving about `target` intervals over `span`.
fn nice_step(span: f64, target: f64) -> f64 {
    if span <= 0.0 || !span.is_finite() {
        return 1.0;
    }
    let raw = span / target;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|f| f * magnitude)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * magnitude);
    step.max(f64::MIN_POSITIVE)
}

/// Text safe inside SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A tick label: integers without decimals.
fn tick_label(value: f64) -> String {
    if (value - value.round()).abs() < 1e-9 {
        format!("{}", value.round() as i64)
    } else {
        format!("{value:.1}")
    }
}

impl LineChart {
    /// The y range: symmetric around zero (scores), at least ±8, rounded up
    /// to a multiple of 8.
    fn y_range(&self) -> (f64, f64) {
        let largest = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1.abs()))
            .fold(0.0f64, f64::max);
        let bound = ((largest / 8.0).ceil() * 8.0).max(8.0);
        (-bound, bound)
    }

    fn x_range(&self) -> (f64, f64) {
        if let Some(range) = self.x_range {
            return range;
        }
        let xs = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0));
        let (low, high) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
        if low.is_finite() && high > low {
            (low, high)
        } else {
            (0.0, 1.0)
        }
    }

    /// The chart as a standalone SVG document.
    pub fn render(&self) -> String {
        let (x0, x1) = self.x_range();
        let (y0, y1) = self.y_range();
        let plot_w = WIDTH - LEFT - RIGHT;
        let plot_h = HEIGHT - TOP - BOTTOM;
        let sx = |x: f64| LEFT + (x - x0) / (x1 - x0) * plot_w;
        let sy = |y: f64| TOP + (y1 - y) / (y1 - y0) * plot_h;
        let mut svg = String::new();
        let _ = writeln!(
            svg,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
             viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">"
        );
        let _ = writeln!(
            svg,
            "<rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"white\"/>"
        );
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"28\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">{}</text>",
            WIDTH / 2.0,
            escape(&self.title)
        );
        // Grid and ticks: eight intervals over the y range (a multiple of
        // 8 discs each side), round steps along x.
        let y_step = (y1 - y0) / 8.0;
        let mut y = (y0 / y_step).ceil() * y_step;
        while y <= y1 + 1e-9 {
            let py = sy(y);
            let stroke = if y.abs() < 1e-9 { "#555" } else { "#e0e0e0" };
            let _ = writeln!(
                svg,
                "<line x1=\"{LEFT}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\" stroke=\"{stroke}\"/>",
                LEFT + plot_w
            );
            let _ = writeln!(
                svg,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                LEFT - 6.0,
                py + 4.0,
                tick_label(y)
            );
            y += y_step;
        }
        let x_step = nice_step(x1 - x0, 12.0).max(1.0);
        let mut x = (x0 / x_step).ceil() * x_step;
        while x <= x1 + 1e-9 {
            let px = sx(x);
            let _ = writeln!(
                svg,
                "<line x1=\"{px:.1}\" y1=\"{TOP}\" x2=\"{px:.1}\" y2=\"{:.1}\" stroke=\"#f0f0f0\"/>",
                TOP + plot_h
            );
            let _ = writeln!(
                svg,
                "<text x=\"{px:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                TOP + plot_h + 18.0,
                tick_label(x)
            );
            x += x_step;
        }
        // Frame and axis titles.
        let _ = writeln!(
            svg,
            "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"none\" stroke=\"#333\"/>"
        );
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"13\">{}</text>",
            LEFT + plot_w / 2.0,
            HEIGHT - 18.0,
            escape(&self.x_label)
        );
        let _ = writeln!(
            svg,
            "<text x=\"18\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"13\" \
             transform=\"rotate(-90 18 {:.1})\">{}</text>",
            TOP + plot_h / 2.0,
            TOP + plot_h / 2.0,
            escape(&self.y_label)
        );
        // Series.
        for series in &self.series {
            if series.points.is_empty() {
                continue;
            }
            let points: Vec<String> = series
                .points
                .iter()
                .map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y.clamp(y0, y1))))
                .collect();
            let dash = if series.dashed {
                " stroke-dasharray=\"6 4\""
            } else {
                ""
            };
            let _ = writeln!(
                svg,
                "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{dash} points=\"{}\"/>",
                escape(&series.color),
                points.join(" ")
            );
        }
        for marker in &self.markers {
            let _ = writeln!(
                svg,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{}\" stroke=\"#333\"><title>{}</title></circle>",
                sx(marker.x),
                sy(marker.y.clamp(y0, y1)),
                escape(&marker.color),
                escape(&marker.label)
            );
        }
        self.legend(&mut svg);
        svg.push_str("</svg>\n");
        svg
    }

    /// The legend, top left inside the plot: series, then marker colours.
    fn legend(&self, svg: &mut String) {
        let mut entries: Vec<(String, String, bool, bool)> = self
            .series
            .iter()
            .map(|s| (s.name.clone(), s.color.clone(), s.dashed, false))
            .collect();
        let mut seen: Vec<&str> = Vec::new();
        for marker in &self.markers {
            if !seen.contains(&marker.color.as_str()) {
                seen.push(&marker.color);
                let name = if marker.label.ends_with("??") {
                    "blunder"
                } else {
                    "mistake"
                };
                entries.push((name.to_string(), marker.color.clone(), false, true));
            }
        }
        let x = LEFT + 12.0;
        for (i, (name, color, dashed, dot)) in entries.iter().enumerate() {
            let y = TOP + 16.0 + 18.0 * i as f64;
            if *dot {
                let _ = writeln!(
                    svg,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{}\" stroke=\"#333\"/>",
                    x + 12.0,
                    y - 4.0,
                    escape(color)
                );
            } else {
                let dash = if *dashed {
                    " stroke-dasharray=\"6 4\""
                } else {
                    ""
                };
                let _ = writeln!(
                    svg,
                    "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{}\" stroke-width=\"2\"{dash}/>",
                    y - 4.0,
                    x + 24.0,
                    y - 4.0,
                    escape(color)
                );
            }
            let _ = writeln!(
                svg,
                "<text x=\"{:.1}\" y=\"{y:.1}\">{}</text>",
                x + 32.0,
                escape(name)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_round() {
        assert_eq!(nice_step(64.0, 8.0), 10.0);
        assert_eq!(nice_step(60.0, 12.0), 5.0);
        assert_eq!(nice_step(16.0, 8.0), 2.0);
        assert_eq!(nice_step(0.0, 8.0), 1.0);
    }

    #[test]
    fn a_chart_renders_its_parts() {
        let chart = LineChart {
            title: "A <b> & c".to_string(),
            x_label: "move".to_string(),
            y_label: "score".to_string(),
            series: vec![Series {
                name: "best".to_string(),
                color: "#000".to_string(),
                dashed: false,
                points: vec![(1.0, 0.0), (2.0, 12.0), (3.0, -20.0)],
            }],
            markers: vec![Marker {
                x: 3.0,
                y: -20.0,
                color: "red".to_string(),
                label: "3 c4??".to_string(),
            }],
            x_range: None,
        };
        let svg = chart.render();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(svg.contains("A &lt;b&gt; &amp; c"));
        assert!(svg.contains("<polyline"));
        assert!(svg.contains(">blunder</text>"));
        assert!(svg.contains(">-24</text>") && svg.contains(">24</text>"));
    }
}
