//! Why a share link cannot be made or opened ([`crate::scenario::decode_share`]).

messages! {
    /// A scenario whose JSON cannot be written.
    cannot_encode(reason) "share.cannot-encode" "cannot encode the scenario: {reason}"
    /// A text too large to share.
    too_large_bytes(bytes, limit) "share.too-large.bytes"
        "the scenario is too large to share as a link ({bytes} bytes; the limit is {limit}): export it as .toml instead"
    /// A payload too long to share.
    too_large_characters(characters, limit) "share.too-large.characters"
        "the scenario is too large to share as a link ({characters} characters; the limit is {limit}): export it as .toml instead"
    /// A link over the length limit.
    link_too_long(characters, limit) "share.link-too-long"
        "the link is too long ({characters} characters; the limit is {limit})"
    /// A payload without a version mark.
    no_version() "share.no-version"
        "the link's scenario is not in a format this lab knows (no version mark)"
    /// A payload of an unknown version.
    unknown_version(version) "share.unknown-version"
        "the link was made by a newer or unknown version of the lab (payload version `{version}`)"
    /// A character outside base64url.
    bad_character(character, at) "share.bad-character"
        "the link is damaged: `{character}` at character {at} cannot appear in it"
    /// Data that does not decode.
    does_not_decode() "share.does-not-decode" "the link is damaged or cut short (its data does not decode)"
    /// Data that unpacks past the limit.
    unpacks_too_large(limit) "share.unpacks-too-large" "the link's scenario is larger than {limit} bytes once unpacked"
    /// Data that does not unpack.
    does_not_unpack() "share.does-not-unpack" "the link is damaged or cut short (its data does not unpack)"
    /// Unpacked data that is not UTF-8.
    not_text() "share.not-text" "the link's scenario is not text"
    /// A version-1 scenario that cannot be written as TOML.
    cannot_show(reason) "share.cannot-show" "the link's scenario cannot be shown: {reason}"
}
