"""Translatable strings: the message markers and formatting (``framework.core.messages``) and
the per-language translators (``framework.i18n.catalogs``), under the one name games import."""

from __future__ import annotations

from framework.core.messages import (
    PLACEHOLDER,
    PLURAL_ARG,
    MessageFormatError,
    PluralMessage,
    Translate,
    check_message_args,
    clienttranslate,
    clienttranslate_plural,
    english_plural,
    format_message,
    placeholders,
    plural_spec,
    substitute,
    totranslate,
    with_plural_args,
)
from framework.i18n.catalogs import (
    DOMAIN,
    FRAMEWORK,
    FRAMEWORK_DIR,
    MAX_CACHED,
    RECHECK_S,
    SOURCE_LANGUAGE,
    SUPPORTED_LANGUAGES,
    Translator,
    _,
    catalog_dir,
    clear_cache,
    current_translator,
    game_directory,
    negotiate_language,
    ngettext,
    plural_translator,
    po_path,
    register_game_directory,
    translator,
    use_language,
)

__all__ = [
    "DOMAIN", "FRAMEWORK", "FRAMEWORK_DIR", "MAX_CACHED", "PLACEHOLDER", "PLURAL_ARG", "RECHECK_S",
    "SOURCE_LANGUAGE", "SUPPORTED_LANGUAGES", "MessageFormatError", "PluralMessage", "Translate",
    "Translator", "_", "catalog_dir", "check_message_args", "clear_cache", "clienttranslate",
    "clienttranslate_plural", "current_translator", "english_plural", "format_message",
    "game_directory", "negotiate_language", "ngettext", "placeholders", "plural_spec",
    "plural_translator", "po_path", "register_game_directory", "substitute", "totranslate",
    "translator", "use_language", "with_plural_args",
]
