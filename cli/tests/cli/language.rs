//! `--language`: problems and the core's notes in Chinese.

use super::*;

/// Whether `text` has Chinese characters.
fn has_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn language_zh_says_problems_and_the_cores_notes_in_chinese_and_changes_no_number() {
    let broken = std::fs::read_to_string(scenario("pendulum-cartesian")).unwrap().replace("m/2*(x'^2", "m/2*(xx'^2");
    let (code, _, err) = nhlab_with_input(&["check", "-", "--language", "zh"], Some(&broken));
    assert_eq!(code, 2);
    // The same place, the same names; the words the catalogue's.
    let line = err.trim();
    assert!(line.starts_with("error: <stdin>:8:17: kinetic: "), "{line}");
    assert!(line.contains("`xx`") && line.contains("`x`") && has_chinese(line), "{line}");
    assert!(!line.contains("unknown name") && !line.contains("did you mean"), "{line}");
    // A run's note from the core (Hamel's split turning singular) in Chinese, with
    // its time and coordinate; the table written is the English run's, byte for byte.
    let sleigh = scenario("chaplygin-sleigh");
    let (code, english_out, english_err) = nhlab(&["run", &sleigh, "--t-end", "2"]);
    assert_eq!(code, 0, "{english_err}");
    let (code, chinese_out, chinese_err) = nhlab(&["--language", "zh-CN", "run", &sleigh, "--t-end", "2"]);
    assert_eq!(code, 0, "{chinese_err}");
    assert_eq!(chinese_out, english_out);
    let note = |err: &str| err.lines().find(|l| l.starts_with("note: hamel: ")).map(str::to_string);
    let (english, chinese) = (note(&english_err).expect("a note"), note(&chinese_err).expect("a note"));
    assert!(english.contains("Hamel's embedding ends at t = 1.14782"), "{english}");
    assert!(chinese.contains("t = 1.14782") && chinese.contains(" y") && has_chinese(&chinese), "{chinese}");
    assert!(!chinese.contains("embedding ends"), "{chinese}");
    // English is the default and `en` says it; another language is refused at its flag.
    assert_eq!(nhlab(&["run", &sleigh, "--t-end", "2", "--language", "en"]).2, english_err);
    let (code, _, err) = nhlab(&["check", &sleigh, "--language", "fr"]);
    assert_eq!(code, 2);
    assert!(err.contains("--language") && err.contains("use en or zh"), "{err}");
}
