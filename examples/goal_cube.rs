//! Measures one cube of the goal-space proof (docs/certify.md, "The goal
//! search's bound, certified from a goal-space model"): writes the model
//! "some goal needs more than B clicks" of the n×n board with c colours to
//! `DIR/m.opb` and the proof of the clause "not (T and these first free
//! cells)" to `DIR/p.pbp`, for `puzzlesat veripb DIR/m.opb DIR/p.pbp`.
//!
//! `cargo run --release --example goal_cube -- N C B T CELLS DIR`, CELLS
//! comma-separated (row-major over rows 0..n−2, columns 0..n−2).

use std::io::Write;
use std::time::Instant;

use puzzlesat::puzzles::alien_tiles::goal_model::GoalModel;
use puzzlesat::puzzles::alien_tiles::goal_proof::write_cube_proof;

fn main() -> Result<(), String> {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let [n, c, b, t, cells, dir] = &a[..] else {
        return Err("usage: goal_cube N C B T CELLS DIR".into());
    };
    let num = |s: &str| s.parse::<usize>().map_err(|e| format!("{s}: {e}"));
    let (n, c, b, t) = (num(n)?, num(c)? as u32, num(b)? as u32, num(t)?);
    let prefix: Vec<usize> = cells.split(',').map(num).collect::<Result<_, _>>()?;
    let dir = std::path::Path::new(dir);
    let io = |e: std::io::Error| e.to_string();
    let started = Instant::now();
    let gm = GoalModel::new(n, c, Some(b))?;
    let mut f = std::io::BufWriter::new(std::fs::File::create(dir.join("m.opb")).map_err(io)?);
    gm.model.write_opb(&mut f).map_err(io)?;
    f.flush().map_err(io)?;
    println!("model: {:.2} s", started.elapsed().as_secs_f64());
    let started = Instant::now();
    let f = std::io::BufWriter::new(std::fs::File::create(dir.join("p.pbp")).map_err(io)?);
    let steps = write_cube_proof(&gm, f, t, &prefix).map_err(|e| e.to_string())?;
    println!(
        "proof: {:.2} s, {} leaves, {} cuts, {} inner nodes, {} bytes",
        started.elapsed().as_secs_f64(),
        steps.leaves,
        steps.cuts,
        steps.nodes,
        steps.bytes
    );
    Ok(())
}
