//! Integration tests of the expression engine, one module per area. Tables read as
//! specifications: "input ⇒ expected".

mod compile;
mod definitions;
mod diff;
mod errors;
mod fuzz;
mod print;
mod properties;
mod simplify;
