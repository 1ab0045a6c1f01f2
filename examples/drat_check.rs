use puzzlesat::certify::drat;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let f = puzzlesat::io::dimacs::read_cnf_file(std::path::Path::new(&a[1])).unwrap();
    let p = std::fs::read(&a[2]).unwrap();
    let t = std::time::Instant::now();
    let r = drat::check(&f, &p, drat::detect_format(&p));
    println!("{:?} {:.2}s", r, t.elapsed().as_secs_f64());
}
