//! Terminal summaries of an experiment's rows: one line per configuration
//! (the varied options other than the size) with rows, solved count,
//! median and total time, mean variables and clauses; then a size ×
//! configuration table of median times, and the objective/count answers
//! per size, so disagreements between configurations stand out.

use std::collections::BTreeMap;
use std::io::Write;

use super::grid::Grid;
use super::row::{Row, RowStatus};

/// Rows grouped by configuration, in first-seen (grid) order.
pub fn by_config<'a>(grid: &Grid, rows: &'a [Row]) -> Vec<(String, Vec<&'a Row>)> {
    let names = grid.varied_names();
    let mut groups: Vec<(String, Vec<&Row>)> = vec![];
    for r in rows {
        let c = r.config(&names);
        match groups.iter_mut().find(|(k, _)| *k == c) {
            Some((_, g)) => g.push(r),
            None => groups.push((c, vec![r])),
        }
    }
    groups
}

/// Median of the values (None if empty).
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    })
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (s, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| s / n as f64)
}

fn secs(v: Option<f64>) -> String {
    match v {
        None => "-".into(),
        Some(s) if s < 10.0 => format!("{s:.3}"),
        Some(s) => format!("{s:.1}"),
    }
}

fn count(v: Option<f64>) -> String {
    v.map(|v| format!("{:.0}", v)).unwrap_or_else(|| "-".into())
}

/// Prints a table with aligned columns (first column left-aligned).
pub fn print_table(
    out: &mut dyn Write,
    header: &[String],
    lines: &[Vec<String>],
) -> std::io::Result<()> {
    let mut width: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for l in lines {
        for (i, c) in l.iter().enumerate() {
            width[i] = width[i].max(c.chars().count());
        }
    }
    let fmt = |cells: &[String]| {
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == 0 {
                    format!("{c:<w$}", w = width[i])
                } else {
                    format!("{c:>w$}", w = width[i])
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    writeln!(out, "{}", fmt(header))?;
    writeln!(
        out,
        "{}",
        width
            .iter()
            .map(|w| "-".repeat(*w))
            .collect::<Vec<_>>()
            .join("  ")
    )?;
    for l in lines {
        writeln!(out, "{}", fmt(l))?;
    }
    Ok(())
}

/// The summary tables of `rows` (the grid's rows, in grid order).
pub fn print(grid: &Grid, rows: &[Row], out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "# {} — puzzle {}, {} rows",
        grid.name,
        grid.puzzle,
        rows.len()
    )?;
    if let Some(q) = &grid.question {
        writeln!(out, "# {}", q.trim())?;
    }
    if rows.is_empty() {
        return writeln!(out, "(no rows yet)");
    }
    let groups = by_config(grid, rows);
    let header: Vec<String> = [
        "configuration",
        "rows",
        "solved",
        "median s",
        "PAR1 s",
        "mean vars",
        "mean clauses",
        "failures",
    ]
    .map(String::from)
    .into();
    let mut lines = vec![];
    for (config, g) in &groups {
        let mut solved_times: Vec<f64> =
            g.iter().filter(|r| r.solved()).map(|r| r.time()).collect();
        let total: f64 = g.iter().map(|r| r.time()).sum();
        let mut failures: BTreeMap<String, usize> = BTreeMap::new();
        for r in g.iter().filter(|r| !r.solved()) {
            *failures.entry(r.status_label()).or_default() += 1;
        }
        lines.push(vec![
            config.clone(),
            g.len().to_string(),
            solved_times.len().to_string(),
            secs(median(&mut solved_times)),
            secs(Some(total)),
            count(mean(g.iter().filter_map(|r| r.vars).map(|v| v as f64))),
            count(mean(g.iter().filter_map(|r| r.clauses).map(|v| v as f64))),
            if failures.is_empty() {
                "-".into()
            } else {
                failures
                    .iter()
                    .map(|(k, v)| format!("{v} {k}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        ]);
    }
    print_table(out, &header, &lines)?;
    if grid.size_param.is_empty() {
        return print_failures(&groups, out);
    }
    // configuration × size: median seconds with the answer, then clauses
    for (title, cell) in [
        (
            "median seconds (=answer: objective or count)",
            time_cell as CellFn,
        ),
        ("clauses", clauses_cell),
    ] {
        writeln!(out)?;
        let mut header = vec![title.to_string()];
        header.extend(
            grid.sizes
                .iter()
                .map(|s| format!("{}={}", grid.size_param, short_label(s))),
        );
        let lines: Vec<Vec<String>> = groups
            .iter()
            .map(|(config, g)| {
                let mut line = vec![config.clone()];
                for size in &grid.sizes {
                    let at: Vec<&Row> = g
                        .iter()
                        .copied()
                        .filter(|r| r.params.get(&grid.size_param) == Some(size))
                        .collect();
                    line.push(if at.is_empty() {
                        String::new()
                    } else {
                        cell(&at)
                    });
                }
                line
            })
            .collect();
        print_table(out, &header, &lines)?;
    }
    print_failures(&groups, out)
}

type CellFn = fn(&[&Row]) -> String;

/// A size value for a column head or an axis: a file path by its stem.
pub fn short_label(value: &str) -> String {
    if value.contains('/') {
        if let Some(stem) = std::path::Path::new(value).file_stem() {
            return stem.to_string_lossy().into_owned();
        }
    }
    value.to_string()
}

/// Median time of the solved rows and their answer, else the status.
fn time_cell(at: &[&Row]) -> String {
    let mut t: Vec<f64> = at.iter().filter(|r| r.solved()).map(|r| r.time()).collect();
    match median(&mut t) {
        None => match (at[0].unproven(), at[0].objective, at[0].bound) {
            (true, Some(v), Some(b)) => format!("sat {v} (bound {b})"),
            _ if at[0].status == RowStatus::Partial && at[0].count.is_some() => {
                format!("partial >={}", at[0].count.unwrap_or(0))
            }
            _ => at[0].status_label(),
        },
        Some(m) => {
            let answer = at
                .iter()
                .find(|r| r.solved())
                .and_then(|r| r.objective.or(r.count.map(|c| c as i64)));
            format!(
                "{}{}",
                secs(Some(m)),
                answer.map(|a| format!(" ={a}")).unwrap_or_default()
            )
        }
    }
}

/// Mean clauses of the rows that report them.
fn clauses_cell(at: &[&Row]) -> String {
    count(mean(at.iter().filter_map(|r| r.clauses).map(|v| v as f64)))
}

/// Per configuration and failure status: how many, and the first message.
fn print_failures(groups: &[(String, Vec<&Row>)], out: &mut dyn Write) -> std::io::Result<()> {
    let mut first = true;
    for (config, g) in groups {
        let mut seen: Vec<(String, usize, Option<&str>)> = vec![];
        for r in g.iter().filter(|r| !r.solved()) {
            let label = r.status_label();
            match seen.iter_mut().find(|(s, _, _)| *s == label) {
                Some((_, n, _)) => *n += 1,
                None => seen.push((label, 1, r.message.as_deref())),
            }
        }
        for (status, n, msg) in seen {
            if first {
                writeln!(out, "\nnot solved:")?;
                first = false;
            }
            writeln!(
                out,
                "  {config}: {n} {status}{}",
                msg.map(|m| format!(" (first: {m})")).unwrap_or_default()
            )?;
        }
    }
    Ok(())
}
