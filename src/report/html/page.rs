//! The page the HTML reports are written on: its style sheet and policy, and the builder of
//! its header, tables, charts and scenario block.

use std::fmt::Write;

use crate::model::Estimate;
use crate::report::svg::{self, Bars, Chart};
use crate::report::words;

/// The page's style sheet: light, dark and print, system fonts only.
const STYLE: &str = r#"
:root{color-scheme:light dark;--ink:#1c2128;--muted:#59636e;--paper:#fff;--panel:#f6f8fa;
--line:#d1d9e0;--accent:#b42318;--accent-bg:#fdf1f0;--measured:#0a5bb5;--given:#3d4650;
--assumed:#8a5a00;--assumed-bg:#fff6dc;--fine:#1a7f37;--fine-bg:#eefbf1}
@media (prefers-color-scheme:dark){:root{--ink:#e6edf3;--muted:#9ba6b2;--paper:#0e1116;
--panel:#161b22;--line:#323943;--accent:#ff8a80;--accent-bg:#2a1517;--measured:#79b8ff;
--given:#c9d1d9;--assumed:#f2c14e;--assumed-bg:#2b2410;--fine:#56d364;--fine-bg:#12261a}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--paper);color:var(--ink);
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Liberation Sans",sans-serif}
main{max-width:62rem;margin:0 auto;padding:1.25rem 1.25rem 3rem}
header p.what{margin:0 0 .4rem;color:var(--muted);font-size:.95rem;font-weight:600;
overflow-wrap:anywhere}
#verdict{margin:0 0 1rem;padding:.9rem 1.1rem;font-size:1.4rem;line-height:1.35;font-weight:650;
border-left:.4rem solid var(--accent);background:var(--accent-bg);border-radius:.3rem}
#verdict.fine{border-left-color:var(--fine);background:var(--fine-bg)}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(13rem,1fr));gap:.6rem;
margin:0 0 .75rem;padding:0;list-style:none}
.figures li{background:var(--panel);border:1px solid var(--line);border-radius:.4rem;
padding:.6rem .9rem}
.figures .value{display:block;font-size:1.55rem;font-weight:700;
font-variant-numeric:tabular-nums;line-height:1.2}
.figures .label{display:block;color:var(--muted);font-size:.9rem}
.figures .range{display:block;font-size:.85rem;font-variant-numeric:tabular-nums}
.flag{white-space:nowrap}
h2{font-size:1.2rem;margin:2rem 0 .5rem;padding-bottom:.25rem;border-bottom:1px solid var(--line)}
h3{font-size:1rem;margin:1.25rem 0 .25rem}
p{margin:.5rem 0}
.note{color:var(--muted);font-size:.92rem}
.scroll{overflow-x:auto}
.columns{display:grid;grid-template-columns:repeat(auto-fill,minmax(26rem,1fr));column-gap:1.5rem}
.columns table{margin-bottom:.6rem}
table{border-collapse:collapse;width:100%;margin:.4rem 0 1rem;font-size:.93rem}
caption{caption-side:top;text-align:left;font-weight:600;padding:.2rem 0}
th,td{padding:.3rem .55rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
thead th{background:var(--panel);font-weight:600}
th[scope=row]{font-weight:normal;white-space:nowrap}
th.sub{padding-left:1.6rem;color:var(--muted)}
.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
thead th.n{white-space:normal}
.kind{display:inline-block;min-width:4.8rem;text-align:center;font-size:.78rem;font-weight:650;
padding:0 .45rem;border:1px solid currentColor;border-radius:1rem;white-space:nowrap}
.kind-measured{color:var(--measured)}
.kind-given{color:var(--given)}
.kind-assumed{color:var(--assumed);background:var(--assumed-bg)}
tr.assumed td,tr.assumed th{background:var(--assumed-bg)}
.outcome-pass{color:var(--fine)}
.outcome-warn{color:var(--assumed);background:var(--assumed-bg)}
.outcome-fail{color:var(--accent);background:var(--accent-bg)}
figure{margin:1rem 0 1.5rem;break-inside:avoid}
figcaption{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
figure svg{display:block;width:100%;height:auto;border:1px solid var(--line);border-radius:.4rem;
background:#fff}
details{margin:.3rem 0}
summary{cursor:pointer;color:var(--muted);font-size:.92rem}
pre{margin:.4rem 0 1rem;padding:.7rem .9rem;background:var(--panel);border:1px solid var(--line);
border-radius:.4rem;overflow-x:auto;font-size:.82rem;line-height:1.4}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
footer{margin-top:2rem;color:var(--muted);font-size:.85rem}
@media (max-width:40rem){main{padding:.9rem .8rem 2rem}#verdict{font-size:1.15rem}
.figures{grid-template-columns:repeat(2,1fr)}.figures .value{font-size:1.2rem}
th[scope=row]{white-space:normal}.kind{min-width:0}td{min-width:6rem}td.n{min-width:0}
.columns{grid-template-columns:1fr}
table.stack thead{display:none}
table.stack tr{display:block;padding:.35rem 0;border-bottom:1px solid var(--line)}
table.stack th,table.stack td{display:block;border:0;padding:.1rem .4rem;text-align:left;min-width:0}
table.stack th[scope=row]{font-weight:600}
table.stack td[data-label]::before{content:attr(data-label) ": ";color:var(--muted)}
table.stack td:empty{display:none}}
@media print{
:root{color-scheme:light;--ink:#000;--muted:#444;--paper:#fff;--panel:#f3f3f3;--line:#bbb;
--accent:#b42318;--accent-bg:#fdf1f0;--measured:#0a5bb5;--given:#333;--assumed:#7a4f00;
--assumed-bg:#fff6dc;--fine:#1a7f37;--fine-bg:#eefbf1}
@page{size:A4;margin:14mm 12mm 16mm}
body{font-size:10pt;-webkit-print-color-adjust:exact;print-color-adjust:exact}
main{max-width:none;padding:0}
#verdict{font-size:15pt}
h2{break-after:avoid;margin-top:1.2rem}
tr,figure,.figures li{break-inside:avoid}
.scroll{overflow:visible}
.columns{grid-template-columns:1fr 1fr}
.figures{grid-template-columns:repeat(4,1fr)}
figure svg{max-height:120mm;width:auto;max-width:100%;margin:0 auto}
details>summary{display:none}
pre{white-space:pre-wrap;word-break:break-all}
}
"#;

/// Escaped `text` with each flag (`--succeeded-share`) kept on one line: a browser would
/// otherwise break it at its hyphens.
fn unbroken_flags(text: &str) -> String {
    let flag = regex::Regex::new(r"--[a-z][a-z0-9-]*").expect("a valid pattern");
    flag.replace_all(text, "<span class=\"flag\">$0</span>")
        .into_owned()
}

/// The policy that keeps the page from fetching anything: only its own inline style.
const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; \
                      base-uri 'none'; form-action 'none'";

/// `text` safe inside an element or a quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// How an input's value was obtained, as the page marks it: the findings' kind.
pub use crate::findings::Kind;

/// A table cell: its text and whether it is a figure (right-aligned).
#[derive(Clone)]
pub enum Cell {
    Text(String),
    Figure(String),
    /// An input's kind, as a badge, then what the report says of it (`the default; --ttl
    /// settles it`).
    Kind(Kind, Option<String>),
    /// Code (a flag, a path).
    Code(String),
    /// A check's outcome (`pass`, `warn`, `FAIL`), as a badge of its colour.
    Outcome(crate::probe::Grade),
}

/// What the verdict says: a cost to act on, or that all is well.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Cost,
    Fine,
}

impl Tone {
    /// The estimate's: fine when its verdict finds nothing to fix (no duplicates, no
    /// customer left unanswered for want of retries, keys kept long enough).
    pub(super) fn of(e: &Estimate) -> Tone {
        let unanswered = e.inputs.retries == 0 && e.unanswered.zero_retries_per_month > 0.0;
        if e.duplicates.per_month > 0.0 || unanswered || e.ttl_shorter_than_horizon() {
            Tone::Cost
        } else {
            Tone::Fine
        }
    }
}

/// One page, written top to bottom.
pub struct Page {
    out: String,
    charts: usize,
}

impl Page {
    /// The page's head, its title, and the verdict in one sentence at the top.
    pub fn new(title: &str, verdict: &str, tone: Tone) -> Page {
        let mut out = String::with_capacity(64 * 1024);
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">\n\
             <meta name=\"color-scheme\" content=\"light dark\">\n\
             <meta name=\"generator\" content=\"dupcost {}\">\n\
             <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n\
             <header>\n<p class=\"what\">{}</p>\n<p id=\"verdict\"{}>{}</p>\n",
            env!("CARGO_PKG_VERSION"),
            escape(title),
            escape(title),
            if tone == Tone::Fine {
                " class=\"fine\""
            } else {
                ""
            },
            unbroken_flags(&escape(verdict)),
        );
        Page { out, charts: 0 }
    }

    /// The headline figures, as cards under the verdict: `(label, value)`.
    pub fn figures(&mut self, figures: &[(String, String)]) {
        let cards: Vec<(String, String, Option<String>)> = figures
            .iter()
            .map(|(label, value)| (label.clone(), value.clone(), None))
            .collect();
        self.cards(&cards);
    }

    /// The headline figures as cards, each with the range the evidence allows under its
    /// value where there is one: `(label, value, range)`.
    pub fn cards(&mut self, cards: &[(String, String, Option<String>)]) {
        self.out.push_str("<ul class=\"figures\">\n");
        for (label, value, range) in cards {
            let range = range.as_deref().map_or(String::new(), |r| {
                format!("<span class=\"range\">{}</span>", escape(r))
            });
            let _ = writeln!(
                self.out,
                "<li><span class=\"value\">{}</span>{range}<span class=\"label\">{}</span></li>",
                escape(value),
                escape(label)
            );
        }
        self.out.push_str("</ul>\n");
    }

    /// Ends the header (verdict and figures): what follows is the body of the report.
    pub fn end_header(&mut self) {
        self.out.push_str("</header>\n");
    }

    /// A section heading.
    pub fn heading(&mut self, id: &str, text: &str) {
        let _ = writeln!(self.out, "<h2 id=\"{}\">{}</h2>", escape(id), escape(text));
    }

    /// A smaller heading inside a section.
    pub fn subheading(&mut self, text: &str) {
        let _ = writeln!(self.out, "<h3>{}</h3>", escape(text));
    }

    /// A paragraph of text.
    pub fn paragraph(&mut self, text: &str) {
        let _ = writeln!(self.out, "<p>{}</p>", escape(text));
    }

    /// A paragraph in the muted voice of a note.
    pub fn note(&mut self, text: &str) {
        let _ = writeln!(self.out, "<p class=\"note\">{}</p>", escape(text));
    }

    /// Tables side by side while the page is wide enough, until [`Page::end_columns`].
    pub fn begin_columns(&mut self) {
        self.out.push_str("<div class=\"columns\">\n");
    }

    pub fn end_columns(&mut self) {
        self.out.push_str("</div>\n");
    }

    /// A bulleted list of sentences.
    pub fn list(&mut self, items: &[String]) {
        self.out.push_str("<ul>\n");
        for item in items {
            let _ = writeln!(self.out, "<li>{}</li>", escape(item));
        }
        self.out.push_str("</ul>\n");
    }

    /// A real table: a caption, a header row, and rows whose first cell heads the row. A row
    /// holding a [`Cell::Kind`] of [`Kind::Assumed`] is marked, so assumptions stand out.
    pub fn table(&mut self, caption: &str, headers: &[&str], rows: &[Vec<Cell>]) {
        // A table of sentences (evidence, a check's detail) is read a row at a time on a
        // phone: its cells stacked under their column's name.
        let sentences = rows
            .iter()
            .flatten()
            .skip(1)
            .any(|cell| matches!(cell, Cell::Text(text) if text.len() > 60));
        self.out.push_str(if sentences {
            "<div class=\"scroll\"><table class=\"stack\">\n"
        } else {
            "<div class=\"scroll\"><table>\n"
        });
        if !caption.is_empty() {
            let _ = writeln!(self.out, "<caption>{}</caption>", escape(caption));
        }
        // A column is numeric when its cells are figures: its header aligns with them.
        let numeric = |i: usize| {
            rows.iter()
                .any(|row| matches!(row.get(i), Some(Cell::Figure(_))))
        };
        self.out.push_str("<thead><tr>");
        for (i, header) in headers.iter().enumerate() {
            let class = if numeric(i) { " class=\"n\"" } else { "" };
            let _ = write!(self.out, "<th scope=\"col\"{class}>{}</th>", escape(header));
        }
        self.out.push_str("</tr></thead>\n<tbody>\n");
        for row in rows {
            let assumed = row
                .iter()
                .any(|cell| matches!(cell, Cell::Kind(Kind::Assumed, _)));
            self.out.push_str(if assumed {
                "<tr class=\"assumed\">"
            } else {
                "<tr>"
            });
            for (i, cell) in row.iter().enumerate() {
                let (open, close) = match headers.get(i) {
                    _ if i == 0 => ("<th scope=\"row\"".to_string(), "</th>"),
                    Some(header) if sentences && !header.is_empty() => {
                        (format!("<td data-label=\"{}\"", escape(header)), "</td>")
                    }
                    _ => ("<td".to_string(), "</td>"),
                };
                let _ = match cell {
                    // A row label indented by the model (`  of whom charged anyway`) is a
                    // part of the row above it.
                    Cell::Text(text) if i == 0 && text.starts_with(' ') => write!(
                        self.out,
                        "{open} class=\"sub\">{}{close}",
                        escape(text.trim_start())
                    ),
                    Cell::Text(text) => write!(self.out, "{open}>{}{close}", escape(text)),
                    Cell::Figure(text) => {
                        write!(self.out, "{open} class=\"n\">{}{close}", escape(text))
                    }
                    Cell::Kind(kind, detail) => write!(
                        self.out,
                        "{open}><span class=\"kind kind-{0}\">{0}</span>{1}{close}",
                        words::kind_name(*kind),
                        detail
                            .as_ref()
                            .map_or(String::new(), |d| format!(" {}", escape(d)))
                    ),
                    Cell::Code(text) => {
                        write!(self.out, "{open}><code>{}</code>{close}", escape(text))
                    }
                    Cell::Outcome(outcome) => write!(
                        self.out,
                        "{open}><span class=\"kind outcome-{}\">{}</span>{close}",
                        crate::report::words::probe::outcome_word(*outcome).to_lowercase(),
                        crate::report::words::probe::outcome_word(*outcome)
                    ),
                };
            }
            self.out.push_str("</tr>\n");
        }
        self.out.push_str("</tbody></table></div>\n");
    }

    /// A line chart, inline, with its figures as a table for its text alternative.
    pub fn chart(&mut self, chart: &Chart) {
        let Ok(drawing) = svg::render(std::slice::from_ref(chart)) else {
            return;
        };
        let rows = chart_rows(chart);
        let mut headers = vec![chart.x_label.as_str()];
        headers.extend(chart.series.iter().map(|s| s.name.as_str()));
        self.figure(&chart.title, &drawing, &headers, &rows);
    }

    /// A bar chart, inline, with its figures as a table for its text alternative.
    pub fn bars(&mut self, bars: &Bars) {
        let Ok(drawing) = svg::render_bars(bars) else {
            return;
        };
        let rows: Vec<Vec<Cell>> = bars
            .items
            .iter()
            .map(|(label, value)| {
                vec![
                    Cell::Text(label.clone()),
                    Cell::Figure((bars.value_format)(*value)),
                ]
            })
            .collect();
        self.figure(&bars.title, &drawing, &["", &bars.value_label], &rows);
    }

    fn figure(&mut self, title: &str, drawing: &str, headers: &[&str], rows: &[Vec<Cell>]) {
        self.charts += 1;
        let id = format!("chart-{}", self.charts);
        let _ = writeln!(
            self.out,
            "<figure aria-labelledby=\"{id}-caption\">\n<figcaption id=\"{id}-caption\">{}</figcaption>",
            escape(title)
        );
        self.out.push_str(&inline_svg(drawing, &id, title));
        let _ = writeln!(
            self.out,
            "<details><summary>The figures behind this chart</summary>"
        );
        self.table("", headers, rows);
        self.out.push_str("</details>\n</figure>\n");
    }

    /// The scenario as a block to save and give back to `--scenario`.
    pub fn scenario(&mut self, intro: &str, json: &str) {
        self.note(intro);
        let _ = writeln!(
            self.out,
            "<pre><code class=\"language-json\">{}</code></pre>",
            escape(json.trim_end())
        );
    }

    /// The page's last words and its closing tags.
    pub fn finish(mut self, footer: &str) -> Vec<u8> {
        let _ = write!(
            self.out,
            "<footer>{}</footer>\n</main>\n</body>\n</html>\n",
            escape(footer)
        );
        self.out.into_bytes()
    }
}

/// A chart's points as rows: one per x of its first series, one column per series (empty
/// where a series has no point at that x).
fn chart_rows(chart: &Chart) -> Vec<Vec<Cell>> {
    let x_text = |x: f64| match &chart.x_format {
        Some(format) => format(x),
        None => super::human::count(x),
    };
    let y_text = |y: f64| match &chart.y_format {
        Some(format) => format(y),
        None => super::human::count(y),
    };
    let Some(first) = chart.series.first() else {
        return Vec::new();
    };
    first
        .points
        .iter()
        .map(|&(x, _)| {
            let mut row = vec![Cell::Text(x_text(x))];
            for series in &chart.series {
                let y = series.points.iter().find(|p| p.0 == x).map(|p| p.1);
                row.push(Cell::Figure(y.map(y_text).unwrap_or_default()));
            }
            row
        })
        .collect()
}

/// A chart's SVG document as an element of the page: scaled to the page's width, named by
/// its title for screen readers.
fn inline_svg(drawing: &str, id: &str, title: &str) -> String {
    let start = drawing.find("<svg").unwrap_or(0);
    let Some(tag_end) = drawing[start..].find('>').map(|i| start + i) else {
        return String::new();
    };
    let tag = &drawing[start..tag_end];
    // The drawing's fixed size goes: its viewBox keeps the proportions, the page the width.
    let size = regex::Regex::new(r#"\s(width|height)="[^"]*""#).expect("a valid pattern");
    format!(
        "{} role=\"img\" aria-labelledby=\"{id}-title\" preserveAspectRatio=\"xMidYMid meet\">\
         <title id=\"{id}-title\">{}</title>{}\n",
        size.replace_all(tag, ""),
        escape(title),
        drawing[tag_end + 1..].trim_end()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn an_inline_chart_scales_and_is_named() {
        let svg = "<svg width=\"900\" height=\"520\" viewBox=\"0 0 900 520\" \
                   xmlns=\"http://www.w3.org/2000/svg\">\n<rect/>\n</svg>\n";
        let inline = inline_svg(svg, "chart-1", "Refunds <a month>");
        assert_eq!(
            inline,
            "<svg viewBox=\"0 0 900 520\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" \
             aria-labelledby=\"chart-1-title\" preserveAspectRatio=\"xMidYMid meet\">\
             <title id=\"chart-1-title\">Refunds &lt;a month&gt;</title>\n<rect/>\n</svg>\n"
        );
    }
}
