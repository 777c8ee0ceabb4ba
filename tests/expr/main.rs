//! Integration tests of the expression engine.
