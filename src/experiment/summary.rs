//! Terminal summaries of an experiment's rows: one line per configuration
//! (the varied options other than the size) with rows, solved count,
//! median and total time, mean variables and clauses; then a size ×
//! configuration table of median times, and the objective/count answers
//! per size, so disagreements between configurations stand out.

use std::collections::BTreeMap;
use std::io::Write;

use super::grid::Grid;
use super::row::Row;

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
        "total s",
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
        let mut failures: BTreeMap<&str, usize> = BTreeMap::new();
        for r in g.iter().filter(|r| !r.solved()) {
            *failures.entry(r.status.as_str()).or_default() += 1;
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
        return Ok(());
    }
    // size × configuration: median seconds (solved rows), clauses, and the answers
    writeln!(out)?;
    let mut header = vec![grid.size_param.clone()];
    header.extend(groups.iter().map(|(c, _)| c.clone()));
    let mut lines = vec![];
    for size in &grid.sizes {
        let mut line = vec![size.clone()];
        for (_, g) in &groups {
            let at: Vec<&&Row> = g
                .iter()
                .filter(|r| r.params.get(&grid.size_param) == Some(size))
                .collect();
            let mut t: Vec<f64> = at.iter().filter(|r| r.solved()).map(|r| r.time()).collect();
            let clauses = mean(at.iter().filter_map(|r| r.clauses).map(|v| v as f64));
            let answer = at
                .iter()
                .find(|r| r.solved())
                .and_then(|r| r.objective.or(r.count.map(|c| c as i64)));
            let cell = match (median(&mut t), at.first()) {
                (_, None) => "".into(),
                (None, Some(r)) => format!("{} ({} cl)", r.status, count(clauses)),
                (Some(m), Some(_)) => {
                    let answer = answer.map(|a| format!(" ={a}")).unwrap_or_default();
                    format!("{}s{answer} ({} cl)", secs(Some(m)), count(clauses))
                }
            };
            line.push(cell);
        }
        lines.push(line);
    }
    print_table(out, &header, &lines)
}
