//! The runner's and the helper's build script (both Cargo.toml name it): links the
//! module with a growable function table, where compiled kernels
//! (`nhlab_www::kernel`) put their functions in new slots, to be called wasm to
//! wasm. wasm-ld makes the table's size fixed otherwise.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=--growable-table");
    }
}
