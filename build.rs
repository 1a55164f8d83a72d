//! Sets `cfg(shared_data)` when the workspace's shared data (WTHOR games,
//! XOT openings, FFO positions) is in `../shared` beside the project. The
//! tests that read it are ignored without it, so `cargo test` lists them
//! as ignored with the reason instead of passing them unseen.

use std::path::Path;

/// The folders of `../shared` the tests read.
const SHARED_FOLDERS: [&str; 3] = ["games/wthor", "openings", "endgame"];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shared_data)");
    println!("cargo::rustc-check-cfg=cfg(built_in_book)");
    println!("cargo::rerun-if-changed=build.rs");
    // The built-in opening book is embedded when `fitted/book.bin` exists
    // (the engine plays without one otherwise).
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
    let book = Path::new(&manifest_dir).join("fitted/book.bin");
    if book.is_file() {
        println!("cargo::rustc-cfg=built_in_book");
        println!("cargo::rerun-if-changed={}", book.display());
    }
    // Read when the script runs, not when it is built: cargo reuses one
    // build of it for clones of the project in other folders.
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
    let shared = Path::new(&manifest).join("../shared");
    let folders: Vec<_> = SHARED_FOLDERS.iter().map(|f| shared.join(f)).collect();
    if folders.iter().all(|f| f.is_dir()) {
        println!("cargo::rustc-cfg=shared_data");
        // Watched only when present: a missing path would rerun this script,
        // and rebuild the crate, on every build. Data added later is seen
        // after `touch build.rs`.
        for folder in &folders {
            println!("cargo::rerun-if-changed={}", folder.display());
        }
    }
}
