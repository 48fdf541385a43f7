//! A small SVG line chart with a logarithmic y axis, written by hand: axes with ticks and
//! titles, one series per configuration, and a legend. Self-contained (no scripts, no
//! external fonts), so it opens in any browser and embeds in a README.
//!
//! Structure, relied on by tests and usable by anyone post-processing the file:
//! `<g id="x-axis">`, `<g id="y-axis">`, `<g id="legend">` holding one
//! `<g class="legend-entry">` per series, and one `<g class="series" data-name="…">` per
//! series holding a `<polyline>` and a `<circle>` per point.

use std::fmt::Write as _;

/// One line of the chart.
pub struct Series {
    /// The legend label.
    pub name: String,
    /// `(x, y)` points; points with `y <= 0` cannot appear on a log scale and are skipped.
    pub points: Vec<(f64, f64)>,
}

/// A line chart with a log-scale y axis.
pub struct Chart {
    /// Title above the plot.
    pub title: String,
    /// A smaller line under the title (e.g. which instances).
    pub subtitle: String,
    /// Title of the x axis.
    pub x_label: String,
    /// Title of the y axis.
    pub y_label: String,
    /// The lines.
    pub series: Vec<Series>,
}

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 460.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 560.0;
const TOP: f64 = 60.0;
const BOTTOM: f64 = 390.0;
/// Tableau 10: distinct for most forms of colour blindness.
const COLOURS: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];

impl Chart {
    /// The SVG document.
    pub fn to_svg(&self) -> String {
        let scale = Scale::of(&self.series);
        let mut svg = String::new();
        self.write_header(&mut svg);
        self.write_x_axis(&mut svg, &scale);
        self.write_y_axis(&mut svg, &scale);
        for (i, s) in self.series.iter().enumerate() {
            write_series(&mut svg, s, COLOURS[i % COLOURS.len()], &scale);
        }
        self.write_legend(&mut svg);
        svg.push_str("</svg>\n");
        svg
    }

    /// The document's opening, background, title and subtitle.
    fn write_header(&self, svg: &mut String) {
        let _ = writeln!(svg, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
        let _ = writeln!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(svg, "<title>{}</title>", escape(&self.title));
        let _ = writeln!(
            svg,
            r#"<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="28" text-anchor="middle" font-size="15" font-weight="bold">{}</text>"#,
            (LEFT + RIGHT) / 2.0,
            escape(&self.title)
        );
        let _ = writeln!(
            svg,
            r##"<text x="{}" y="44" text-anchor="middle" fill="#555">{}</text>"##,
            (LEFT + RIGHT) / 2.0,
            escape(&self.subtitle)
        );
    }

    /// The x axis: a tick at each "nice" step, and its title.
    fn write_x_axis(&self, svg: &mut String, scale: &Scale) {
        let _ = writeln!(svg, r#"<g id="x-axis" class="axis">"#);
        let _ = writeln!(
            svg,
            r#"<line x1="{LEFT}" y1="{BOTTOM}" x2="{RIGHT}" y2="{BOTTOM}" stroke="black"/>"#
        );
        for x in ticks(scale.x_min, scale.x_max) {
            let px = scale.x(x);
            let _ = writeln!(
                svg,
                r##"<line x1="{px:.1}" y1="{TOP}" x2="{px:.1}" y2="{BOTTOM}" stroke="#e4e4e4"/><line x1="{px:.1}" y1="{BOTTOM}" x2="{px:.1}" y2="{}" stroke="black"/><text x="{px:.1}" y="{}" text-anchor="middle">{}</text>"##,
                BOTTOM + 5.0,
                BOTTOM + 19.0,
                number(x)
            );
        }
        let _ = writeln!(
            svg,
            r#"<text class="axis-title" x="{}" y="{}" text-anchor="middle">{}</text>"#,
            (LEFT + RIGHT) / 2.0,
            BOTTOM + 42.0,
            escape(&self.x_label)
        );
        let _ = writeln!(svg, "</g>");
    }

    /// The y axis: a tick at each power of ten (at most about 8), and its title.
    fn write_y_axis(&self, svg: &mut String, scale: &Scale) {
        let _ = writeln!(svg, r#"<g id="y-axis" class="axis">"#);
        let _ = writeln!(
            svg,
            r#"<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{BOTTOM}" stroke="black"/>"#
        );
        let step = ((scale.d_max - scale.d_min) as usize).div_ceil(8).max(1);
        for d in (scale.d_min..=scale.d_max).step_by(step) {
            let py = scale.y(10f64.powi(d));
            let _ = writeln!(
                svg,
                r##"<line x1="{LEFT}" y1="{py:.1}" x2="{RIGHT}" y2="{py:.1}" stroke="#e4e4e4"/><line x1="{}" y1="{py:.1}" x2="{LEFT}" y2="{py:.1}" stroke="black"/><text x="{}" y="{:.1}" text-anchor="end">{}</text>"##,
                LEFT - 5.0,
                LEFT - 8.0,
                py + 4.0,
                power_of_ten(d)
            );
        }
        let _ = writeln!(
            svg,
            r#"<text class="axis-title" transform="translate(22 {}) rotate(-90)" text-anchor="middle">{}</text>"#,
            (TOP + BOTTOM) / 2.0,
            escape(&self.y_label)
        );
        let _ = writeln!(svg, "</g>");
    }

    /// One entry per series: its colour's line and dot, and its name.
    fn write_legend(&self, svg: &mut String) {
        let _ = writeln!(svg, r#"<g id="legend">"#);
        for (i, s) in self.series.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let y = TOP + 10.0 + 22.0 * i as f64;
            let x = RIGHT + 20.0;
            let _ = writeln!(
                svg,
                r#"<g class="legend-entry"><line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{colour}" stroke-width="2"/><circle cx="{}" cy="{y}" r="3" fill="{colour}"/><text x="{}" y="{}">{}</text></g>"#,
                x + 24.0,
                x + 12.0,
                x + 32.0,
                y + 4.0,
                escape(&s.name)
            );
        }
        let _ = writeln!(svg, "</g>");
    }
}

/// A series' line, with a dot (and a tooltip) at each point, in x order.
fn write_series(svg: &mut String, s: &Series, colour: &str, scale: &Scale) {
    let mut pts: Vec<(f64, f64)> = s.points.iter().copied().filter(|&p| plottable(p)).collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let _ = writeln!(
        svg,
        r#"<g class="series" data-name="{}" stroke="{colour}" fill="{colour}">"#,
        escape(&s.name)
    );
    let coords: Vec<String> = pts
        .iter()
        .map(|&(x, y)| format!("{:.1},{:.1}", scale.x(x), scale.y(y)))
        .collect();
    let _ = writeln!(
        svg,
        r#"<polyline points="{}" fill="none" stroke-width="2"/>"#,
        coords.join(" ")
    );
    for &(x, y) in &pts {
        let _ = writeln!(
            svg,
            r#"<circle cx="{:.1}" cy="{:.1}" r="3"><title>{}: {} at {}</title></circle>"#,
            scale.x(x),
            scale.y(y),
            escape(&s.name),
            number(y),
            number(x)
        );
    }
    let _ = writeln!(svg, "</g>");
}

/// Whether a point can be drawn: finite, and above 0 for the log scale.
fn plottable((x, y): (f64, f64)) -> bool {
    x.is_finite() && y.is_finite() && y > 0.0
}

/// Where data values land on the page: x linear over the data's padded range, y by
/// powers of ten over whole decades.
struct Scale {
    x_min: f64,
    x_max: f64,
    d_min: i32,
    d_max: i32,
}

impl Scale {
    fn of(series: &[Series]) -> Scale {
        let points: Vec<(f64, f64)> = series
            .iter()
            .flat_map(|s| s.points.iter().copied())
            .filter(|&p| plottable(p))
            .collect();
        let (x_min, x_max) = padded_range(points.iter().map(|p| p.0));
        let (d_min, d_max) = decade_range(points.iter().map(|p| p.1));
        Scale {
            x_min,
            x_max,
            d_min,
            d_max,
        }
    }

    fn x(&self, x: f64) -> f64 {
        LEFT + (x - self.x_min) / (self.x_max - self.x_min) * (RIGHT - LEFT)
    }

    fn y(&self, y: f64) -> f64 {
        BOTTOM
            - (y.log10() - f64::from(self.d_min)) / f64::from(self.d_max - self.d_min)
                * (BOTTOM - TOP)
    }
}

/// The x range of the data, widened so a single value still spans the axis.
fn padded_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    match (lo.is_finite(), hi > lo) {
        (false, _) => (0.0, 1.0),
        (true, true) => (lo, hi),
        (true, false) => (lo - 1.0, hi + 1.0),
    }
}

/// The powers of ten enclosing the (positive) data, at least one decade apart.
fn decade_range(values: impl Iterator<Item = f64>) -> (i32, i32) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !lo.is_finite() {
        return (0, 1);
    }
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    if b > a {
        (a, b)
    } else {
        (a, a + 1)
    }
}

/// Tick values at a 1, 2 or 5 × 10^k step, about eight of them.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let raw = (hi - lo) / 8.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * magnitude)
        .max(f64::MIN_POSITIVE);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// A tick label: whole numbers without decimals.
fn number(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.2}")
    }
}

/// `1`, `10`, `100`, `1k` … `1M` … then `1e9`.
fn power_of_ten(d: i32) -> String {
    match d {
        i32::MIN..=-1 => format!("1e{d}"),
        0..=2 => format!("{}", 10i64.pow(d as u32)),
        3..=5 => format!("{}k", 10i64.pow(d as u32 - 3)),
        6..=8 => format!("{}M", 10i64.pow(d as u32 - 6)),
        _ => format!("1e{d}"),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(series: Vec<Series>) -> String {
        Chart {
            title: "t <&>".into(),
            subtitle: "s".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series,
        }
        .to_svg()
    }

    #[test]
    fn is_well_formed_with_awkward_names_and_degenerate_data() {
        let svg = chart(vec![
            Series {
                name: "astar:max(a,b)&\"c\"<d>".into(),
                points: vec![(3.0, 10.0), (1.0, 0.0), (2.0, f64::NAN)],
            },
            Series {
                name: "empty".into(),
                points: vec![],
            },
        ]);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let series: Vec<_> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("series"))
            .collect();
        assert_eq!(series.len(), 2);
        assert_eq!(
            series[0].attribute("data-name"),
            Some("astar:max(a,b)&\"c\"<d>")
        );
        // Only the one drawable point is drawn.
        let circles = series[0]
            .children()
            .filter(|n| n.has_tag_name("circle"))
            .count();
        assert_eq!(circles, 1);
        let empty = chart(vec![]);
        roxmltree::Document::parse(&empty).unwrap();
    }

    #[test]
    fn points_land_inside_the_plot_on_a_log_scale() {
        let svg = chart(vec![Series {
            name: "s".into(),
            points: vec![(2.0, 1.0), (4.0, 100.0), (6.0, 10_000.0)],
        }]);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let ys: Vec<f64> = doc
            .descendants()
            .filter(|n| n.has_tag_name("circle") && n.attribute("r") == Some("3"))
            .filter(|n| n.parent().and_then(|p| p.attribute("class")) == Some("series"))
            .map(|n| n.attribute("cy").unwrap().parse().unwrap())
            .collect();
        assert_eq!(ys.len(), 3);
        // Equal ratios are equal distances; larger values are higher (smaller y).
        assert!((ys[0] - ys[1] - (ys[1] - ys[2])).abs() < 0.2, "{ys:?}");
        assert!(ys[0] <= BOTTOM && ys[2] >= TOP && ys[0] > ys[2]);
    }

    #[test]
    fn ticks_and_labels_are_round() {
        assert_eq!(
            ticks(0.0, 10.0),
            (0..=10).step_by(2).map(f64::from).collect::<Vec<_>>()
        );
        assert_eq!(ticks(3.0, 31.0).first(), Some(&5.0));
        assert_eq!(power_of_ten(0), "1");
        assert_eq!(power_of_ten(4), "10k");
        assert_eq!(power_of_ten(6), "1M");
        assert_eq!(decade_range([3.0, 20_000.0].into_iter()), (0, 5));
        assert_eq!(decade_range([100.0].into_iter()), (2, 3));
    }
}
