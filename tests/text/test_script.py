"""Unicode-block script lookup: the dominant script by letter count, Common characters ignored."""

from __future__ import annotations

import pytest

from parakh.text.script import char_script, script_counts


def _dominant(text: str) -> str | None:
    counts = script_counts(text)
    return counts.most_common(1)[0][0] if counts else None


@pytest.mark.parametrize(
    ("text", "script"),
    [
        ("What precautions are needed after cataract surgery?", "Latin"),
        ("kṛṣṇa ne gītā kahī", "Latin"),  # transliteration diacritics are Latin letters
        ("मोतियाबिंद के ऑपरेशन के बाद क्या खाना चाहिए?", "Devanagari"),
        ("শস্ত্রোপচারের পরে কত দিন বিশ্রাম?", "Bengali"),
        ("অস্ত্ৰোপচাৰৰ পিছত কিমান দিন?", "Bengali"),  # Assamese shares the Bengali block
        ("ਸਰਜਰੀ ਤੋਂ ਬਾਅਦ ਕਿੰਨੇ ਦਿਨ?", "Gurmukhi"),
        ("શસ્ત્રક્રિયા પછી કેટલા દિવસ?", "Gujarati"),
        ("ଅସ୍ତ୍ରୋପଚାର ପରେ କେତେ ଦିନ?", "Oriya"),
        ("அறுவை சிகிச்சைக்குப் பிறகு எத்தனை நாட்கள்?", "Tamil"),
        ("శస్త్రచికిత్స తర్వాత ఎన్ని రోజులు?", "Telugu"),
        ("ಶಸ್ತ್ರಚಿಕಿತ್ಸೆಯ ನಂತರ ಎಷ್ಟು ದಿನ?", "Kannada"),
        ("ശസ്ത്രക്രിയയ്ക്ക് ശേഷം എത്ര ദിവസം?", "Malayalam"),
        ("آپریشن کے بعد کتنے دن آرام کرنا چاہیے؟", "Arabic"),
        ("ﻛﻢ", "Arabic"),  # presentation forms
        ("ꯃꯅꯤꯄꯨꯔ ꯑꯁꯤ ꯀꯔꯤꯅꯣ?", "Meetei_Mayek"),
        ("ᱥᱟᱱᱛᱟᱲᱤ ᱯᱟᱹᱨᱥᱤ", "Ol_Chiki"),
        ("Как дела?", "Cyrillic"),
    ],
)
def test_dominant_script(text: str, script: str) -> None:
    assert _dominant(text) == script


def test_common_characters_are_ignored() -> None:
    # Digits (ASCII and Devanagari), danda, punctuation and spaces belong to no script.
    assert _dominant("1920 में?") == "Devanagari"
    assert script_counts("१९४७ । 2024 - !?") == {}
    assert script_counts("") == {}
    for char in "1१।?, -\u200d":
        assert char_script(char) is None


def test_combining_marks_count_for_their_script() -> None:
    # "कि" is a consonant plus a vowel sign (Mc); both are Devanagari.
    assert script_counts("कि") == {"Devanagari": 2}


def test_dominant_script_is_by_letter_count() -> None:
    assert _dominant("eye surgery के बाद") == "Latin"
    assert _dominant("मेरी eye surgery के बाद कितने दिन आराम करना है") == "Devanagari"
