//! `nhlab export FILE --lang c|python|matlab|rust [--method lagrange] [--out FILE]`:
//! the equations as one self-contained source file (`nhlab::code_export`), the
//! inputs taken as arguments `u` of `f(t, y, u, p)`.

use std::path::Path;

use nhlab::code_export::{applicability, export, identifier, Language};
use nhlab::mechanics::Needs;

use crate::args::ExportArgs;
use crate::input::{load_file, method};
use crate::output::write_to;
use crate::Failure;

pub fn run(args: &ExportArgs) -> Result<(), Failure> {
    let language = Language::from_id(&args.lang).ok_or_else(|| {
        let ids: Vec<&str> = Language::ALL.iter().map(|l| l.id()).collect();
        Failure::bad(format!("--lang: unknown language `{}` (one of {})", args.lang, ids.join(", ")))
    })?;
    let method = method(&args.method)?;
    let mut l = load_file(&args.file, |_| Needs::BASE.holding_inputs())?;
    applicability(&l.model, method).map_err(|e| Failure::bad(format!("--method {}: {e}", method.id())))?;
    let stem = |path: &str| Path::new(path).file_stem().map(|s| s.to_string_lossy().into_owned());
    let name = if args.out != "-" { stem(&args.out) } else { None }
        .or_else(|| if args.file != "-" { stem(&args.file) } else { None })
        .unwrap_or_else(|| "model".into());
    if language == Language::Matlab && args.out != "-" && identifier(&name) != name {
        return Err(Failure::bad(format!(
            "--out {}: a MATLAB function file's name must be its function's, an identifier: call it {}.m",
            args.out,
            identifier(&name)
        )));
    }
    let text = export(&l.model, &mut l.numeric, &l.initial, language, &name, env!("CARGO_PKG_VERSION"))
        .map_err(|e| Failure::Compute(format!("cannot export: {e}")))?;
    write_to(&args.out, "--out", &text)
}
