"""Language, romanization and code-mixing labels, and the language table behind them."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import NamedTuple

import pytest
from pydantic import ValidationError

from parakh.errors import ConfigError
from parakh.text import langid
from parakh.text.langid import LanguageLabel, label_language
from parakh.text.languages import (
    INDIC_LANGUAGES,
    LANGUAGES,
    check_language,
    language_name,
    languages_for_script,
    normalize_language,
)

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


class Case(NamedTuple):
    text: str
    language: str
    script: str
    romanized: bool = False
    code_mixed: bool = False


CASES = {
    # Native script: the script fixes the candidates, the identifiers pick among them.
    "hi": Case("मोतियाबिंद के ऑपरेशन के बाद कितने दिन आराम करना चाहिए?", "hi", "Devanagari"),
    "hi-short": Case("ऑपरेशन के बाद क्या खाएं?", "hi", "Devanagari"),
    "mr": Case("मोतीबिंदू शस्त्रक्रियेनंतर किती दिवस विश्रांती घ्यावी लागते?", "mr", "Devanagari"),
    "ne": Case("शल्यक्रिया पछि कति दिन आराम गर्नुपर्छ?", "ne", "Devanagari"),
    "kn": Case("ಶಸ್ತ್ರಚಿಕಿತ್ಸೆಯ ನಂತರ ಎಷ್ಟು ದಿನ ವಿಶ್ರಾಂತಿ ಬೇಕು?", "kn", "Kannada"),
    "ta": Case("அறுவை சிகிச்சைக்குப் பிறகு எத்தனை நாட்கள் ஓய்வு தேவை?", "ta", "Tamil"),
    "te": Case("శస్త్రచికిత్స తర్వాత ఎన్ని రోజులు విశ్రాంతి తీసుకోవాలి?", "te", "Telugu"),
    "bn": Case("অস্ত্রোপচারের পরে কত দিন বিশ্রাম নিতে হবে?", "bn", "Bengali"),
    "as": Case("অস্ত্ৰোপচাৰৰ পিছত কিমান দিন জিৰণি ল'ব লাগে?", "as", "Bengali"),
    "ur": Case("آپریشن کے بعد کتنے دن آرام کرنا چاہیے؟", "ur", "Arabic"),
    "pa": Case("ਸਰਜਰੀ ਤੋਂ ਬਾਅਦ ਕਿੰਨੇ ਦਿਨ ਆਰਾਮ ਕਰਨਾ ਚਾਹੀਦਾ ਹੈ?", "pa", "Gurmukhi"),
    "gu": Case("શસ્ત્રક્રિયા પછી કેટલા દિવસ આરામ કરવો જોઈએ?", "gu", "Gujarati"),
    "ml": Case("ശസ്ത്രക്രിയയ്ക്ക് ശേഷം എത്ര ദിവസം വിശ്രമിക്കണം?", "ml", "Malayalam"),
    "or": Case("ଅସ୍ତ୍ରୋପଚାର ପରେ କେତେ ଦିନ ବିଶ୍ରାମ ନେବା ଉଚିତ?", "or", "Oriya"),
    "mni": Case("ꯃꯅꯤꯄꯨꯔꯒꯤ ꯀꯦꯄꯤꯇꯦꯜ ꯀꯔꯤꯅꯣ?", "mni", "Meetei_Mayek"),
    # English, with and without typos: misspellings must not flip English.
    "en": Case("What precautions should be taken after the surgery?", "en", "Latin"),
    "en-typos": Case("wat is the precautions aftr catract surgery", "en", "Latin"),
    "en-typos-2": Case("how meny days shud i use the drops", "en", "Latin"),
    "en-typos-3": Case("is it ok to eat spicey food after oprtn", "en", "Latin"),
    "en-names": Case("Who was Bal Gangadhar Tilak and what did he found?", "en", "Latin"),
    "en-indian-food": Case("Can I eat roti and dal after the operation?", "en", "Latin"),
    # Romanized Indic, pure and code-mixed with English (matrix = function-word language).
    "hinglish": Case(
        "surgery ke baad kitne din tak eye drops dalne hai?", "hi", "Latin", True, True
    ),
    "hi-latn": Case("operation ke baad kya khana chahiye", "hi", "Latin", True, False),
    "hi-latn-2": Case("mujhe kal surgery ke liye kab aana hai", "hi", "Latin", True, False),
    "kn-latn": Case("operation aada mele yeshtu dina rest beku", "kn", "Latin", True, True),
    "kn-latn-2": Case("naanu yaavaga snana madabahudu", "kn", "Latin", True, False),
    "ta-latn": Case("operation aana aprom evlo naal rest venum", "ta", "Latin", True, True),
    "te-latn": Case("operation tarvata enni rojulu rest teeskovali", "te", "Latin", True, True),
    # Mixed native/Latin script.
    "mixed-hi": Case(
        "मेरी eye surgery के बाद कितने दिन rest करना है?", "hi", "Devanagari", False, True
    ),
    "mixed-hi-2": Case("Cataract surgery के बाद क्या खाना चाहिए?", "hi", "Devanagari", False, True),
    "mixed-en": Case("What is the meaning of नमस्ते in English?", "en", "Latin", False, True),
    # Most letters are Latin, but Urdu carries the grammar: Urdu, not romanized.
    "mixed-ur": Case(
        "Intraocular Lens Implantation Procedure کے بعد کیا کریں؟", "ur", "Latin", False, True
    ),
    # A formula or a name in Latin letters is not a second language.
    "formula": Case("NaHCO3 किसका रासायनिक सूत्र है?", "hi", "Devanagari"),
}


@pytest.mark.parametrize("case", CASES.values(), ids=list(CASES))
def test_hand_written_cases(case: Case) -> None:
    label = label_language(case.text)
    assert label.language == case.language
    assert label.matrix_language == case.language
    assert label.script == case.script
    assert label.romanized is case.romanized
    assert label.code_mixed is case.code_mixed
    assert label.source == "detected"
    assert 0.0 <= label.confidence <= 1.0


def test_code_mixed_label_names_the_embedded_language() -> None:
    label = label_language(CASES["hinglish"].text)
    assert label.embedded_languages == ["en"]
    assert label_language(CASES["hi-latn"].text).embedded_languages == []  # one loanword
    assert label_language(CASES["mixed-en"].text).embedded_languages == ["hi"]


def test_text_without_letters_is_undetermined() -> None:
    for text in ("", "  ", "1920 ?", "१९४७।"):
        label = label_language(text)
        assert (label.language, label.script, label.confidence) == ("und", "Unknown", 0.0)


def test_other_latin_language_is_not_forced_to_english() -> None:
    assert label_language("Bonjour, comment allez-vous aujourd'hui mon ami?").language == "fr"


def test_script_without_a_parakh_language() -> None:
    label = label_language("ᱥᱟᱱᱛᱟᱲᱤ ᱯᱟᱹᱨᱥᱤ")
    assert (label.language, label.script) == ("und", "Ol_Chiki")


def test_hint_breaks_ties_only() -> None:
    # Too short to tell among the Devanagari languages: the hint decides.
    assert label_language("नमस्ते", hint="Nepali").language == "ne"
    assert label_language("नमस्ते").language == "hi"
    # Clear evidence wins over a wrong hint.
    assert label_language(CASES["mr"].text, hint="hi").language == "mr"
    assert label_language(CASES["en"].text, hint="hi").language == "en"
    with pytest.raises(ConfigError, match="Unknown language 'hindu'"):
        label_language("text", hint="hindu")


def test_label_is_frozen_and_strict() -> None:
    label = label_language(CASES["hi"].text)
    with pytest.raises(ValidationError):
        label.language = "mr"  # type: ignore[misc, unused-ignore]
    with pytest.raises(ValidationError):
        LanguageLabel.model_validate(
            {
                "language": "hi",
                "script": "Devanagari",
                "matrix_language": "hi",
                "confidence": 1.0,
                "extra": 1,
            }
        )


def test_identifiers_are_lazy_singletons() -> None:
    assert langid._cld3() is langid._cld3()
    assert langid._py3langid() is langid._py3langid()


# --- languages.py ------------------------------------------------------------------------------


def test_language_table() -> None:
    assert len(LANGUAGES) == 34  # English, 19 Indian languages, NoMIRACL's 14 others
    assert len(INDIC_LANGUAGES) == 19
    assert "en" not in INDIC_LANGUAGES and "fr" not in INDIC_LANGUAGES
    assert languages_for_script("Arabic") == ["ur", "sd", "ar", "fa"]
    assert LANGUAGES["hi"].iso639_3 == "hin"
    assert LANGUAGES["mni"].primary_script == "Meetei_Mayek"
    assert languages_for_script("Bengali") == ["bn", "as"]
    assert languages_for_script("Devanagari") == ["hi", "mr", "ne", "sa", "kok", "mai", "doi"]
    assert languages_for_script("Tamil") == ["ta"]


def test_names_and_aliases() -> None:
    assert language_name("hi") == "Hindi"
    assert language_name("ory") == "Odia"
    for alias, code in [
        ("Hindi", "hi"),
        ("hin", "hi"),
        ("HIN", "hi"),
        ("Oriya", "or"),
        ("gom", "kok"),
        ("npi", "ne"),
        ("Bangla", "bn"),
        ("hi-Latn", "hi"),
        ("en-IN", "en"),
        ("Meitei", "mni"),
    ]:
        assert normalize_language(alias) == code
        assert check_language(alias) == code
    assert normalize_language("klingon") is None


def test_unknown_language_names_close_matches_and_available() -> None:
    with pytest.raises(ConfigError) as excinfo:
        check_language("hindii")
    message = str(excinfo.value)
    assert message.startswith("Unknown language 'hindii'. Did you mean 'hi' (Hindi)")
    assert "Available: ar, as, bn, de, doi, en, es, fa, fi, fr, gu, hi," in message
    with pytest.raises(ConfigError, match=r"Unknown language 'zz'\. Available: "):
        check_language("zz")


# --- real data ---------------------------------------------------------------------------------

# CataractBot questions that are not English (shared split): romanized Hindi asked twice, a
# romanized Kannada message ("nanage tondare aagide", "I have a problem", as typed), and one
# Kannada-script question.
CATARACTBOT_ROMANIZED = {"Generic-045": "hi", "Generic-052": "hi", "Generic-105": "kn"}
CATARACTBOT_CODE_MIXED = {"Generic-045", "Generic-052"}  # "Dosra eye kab kar sakte hi surgery?"
CATARACTBOT_KANNADA_SCRIPT = {"Generic-172"}


def _cataractbot_questions() -> dict[str, str]:
    path = SHARED_DATA / "cataractbot" / "kb_update_qa.jsonl"
    if not path.is_file():
        pytest.skip(f"{path} not available")
    with path.open(encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return {row["id"]: row["question"] for row in rows}


def test_cataractbot_romanized_and_code_mixed_questions() -> None:
    questions = _cataractbot_questions()
    labels = dict(zip(questions, [label_language(q) for q in questions.values()], strict=True))
    romanized = {qid for qid, label in labels.items() if label.romanized}
    code_mixed = {qid for qid, label in labels.items() if label.code_mixed}
    assert romanized == set(CATARACTBOT_ROMANIZED)
    assert code_mixed == CATARACTBOT_CODE_MIXED
    for qid, language in CATARACTBOT_ROMANIZED.items():
        assert labels[qid].language == language
        assert labels[qid].script == "Latin"
    for qid in CATARACTBOT_KANNADA_SCRIPT:
        assert (labels[qid].language, labels[qid].script) == ("kn", "Kannada")
        assert not labels[qid].romanized


def test_cataractbot_plain_english_questions_stay_english() -> None:
    questions = _cataractbot_questions()
    special = set(CATARACTBOT_ROMANIZED) | CATARACTBOT_KANNADA_SCRIPT
    english = [text for qid, text in questions.items() if qid not in special]
    labels = [label_language(text) for text in english]
    as_english = sum(label.language == "en" and not label.romanized for label in labels)
    assert len(english) > 150
    assert as_english / len(english) >= 0.95


def test_indicquest_target_languages_meet_accuracy() -> None:
    folder = SHARED_DATA / "indicquest"
    if not folder.is_dir():
        pytest.skip(f"{folder} not available")
    targets = ["en", "hi", "bn", "gu", "kn", "ml", "mr", "or", "pa", "ta", "te", "ur"]
    for path in sorted(folder.glob("*.csv")):
        code = check_language(path.stem)
        if code not in targets:
            continue
        with path.open(encoding="utf-8", newline="") as f:
            texts = [row["Question"].strip() for row in csv.DictReader(f)]
        correct = sum(label_language(text).language == code for text in texts)
        assert correct / len(texts) >= 0.97, f"{path.name}: {correct}/{len(texts)}"
