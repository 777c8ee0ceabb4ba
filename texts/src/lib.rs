//! The texts every front end of nhlab embeds, compiled in once (build.rs) for the
//! page, the command line and the Python package, so that none of them carries a copy
//! that drifts:
//!
//! - [`gallery`]: every scenario under `scenarios/`, with its title;
//! - [`i18n`]: the message catalogues `www/app/i18n/en.json` and `zh.json` (the
//!   page's own), for the texts made in Rust and the core's message ids.

pub mod gallery;
pub mod i18n;
