"""Language, romanization and code-mixing labels for questions (curate stage).

`label_language` combines three kinds of evidence:

1. The Unicode script (`parakh.text.script`). A native-script Indic text can only be in a
   language written in that script: Devanagari -> hi/mr/ne/sa/kok/mai/doi, Bengali -> bn/as,
   Arabic -> ur/sd; a script used by one of our languages (Tamil, Gurmukhi, Meetei Mayek, ...)
   decides directly.
2. Two statistical identifiers: gcld3 (which also reports romanized Hindi as `hi-Latn`) and
   py3langid, whose scores are renormalised over the languages the script allows.
3. Small curated word lists (end of this module): distinctive function words of the Devanagari
   languages (the identifiers know neither Maithili nor Dogri), letters used by only one of
   bn/as or ur/sd, and, for Latin script, romanized Hindi/Kannada/Tamil/Telugu words against
   English function and common words.

Matrix-language rule (as in HEALTH-PARIKSHA, a code-mixed or romanized query counts as English
or not by its matrix language): the matrix language is the one supplying the grammatical
function words. In Latin script we compare function-word hits per language, then all lexicon
hits, and only then the identifiers; with no evidence at all the text is English, so typos
("wat is the precautions aftr catract surgery") cannot flip English to another language. In a
mixed native/Latin text the native language is the matrix unless the Latin part has at least as
many function words of its language as the native part has words ("What is the meaning of
नमस्ते?" is English with Hindi embedded).

`romanized` means the matrix language is Indic and its words are written in Latin letters.
`code_mixed` means a second language contributes at least `_MIN_EMBEDDED_WORDS` words and
`_MIN_EMBEDDED_SHARE` of the identified words (a single loanword like "operation" in romanized
Hindi is borrowing, not mixing), or the text mixes a native script with Latin-script words of
another language. Latin letters with no lexicon word (names, acronyms, "NaHCO3") do not count.

Known limits: Maithili and Dogri questions written largely in Hindi words are labelled hi;
Manipuri or Santali in Bengali script are labelled bn/as (Parakh expects Manipuri in Meetei
Mayek); a text of one native word gets the hint or the script's main language.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from parakh.errors import MissingDependencyError
from parakh.text.languages import (
    INDIC_LANGUAGES,
    LANGUAGES,
    check_language,
    languages_for_script,
    normalize_language,
)
from parakh.text.script import UNKNOWN_SCRIPT, char_script, script_counts
from parakh.text.tokenize import tokenize

UNDETERMINED = "und"
_MIN_EMBEDDED_WORDS = 2
_MIN_EMBEDDED_SHARE = 0.2
_MIN_MIXED_SCRIPT_SHARE = 0.1
# Native-script scores add py3langid's probability (weight 1), gcld3's probability for its
# label and one weight per distinctive function word. gcld3 weighs less because it knows only
# hi/mr/ne among the Devanagari languages and so pulls Sanskrit and Konkani towards Marathi.
_CLD3_WEIGHT = 0.3
_MARKER_WEIGHT = 1.0
_HINT_BONUS = 0.25  # what a caller's expected language adds: a tie-breaker, not an override


class LanguageLabel(BaseModel):
    """The detected language of one text; `language` is the matrix language's code."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    language: str
    script: str
    romanized: bool = False
    code_mixed: bool = False
    matrix_language: str
    embedded_languages: list[str] = Field(default_factory=list)
    confidence: float = Field(ge=0.0, le=1.0)
    source: Literal["detected"] = "detected"


@lru_cache(maxsize=1)
def _cld3() -> Any:
    try:
        import gcld3
    except ImportError as exc:  # pragma: no cover - a core dependency
        raise MissingDependencyError("gcld3 (cld3-py)", "pip install cld3-py") from exc
    return gcld3.NNetLanguageIdentifier(min_num_bytes=0, max_num_bytes=1000)


@lru_cache(maxsize=1)
def _py3langid() -> Any:
    try:
        from py3langid import langid
    except ImportError as exc:  # pragma: no cover - a core dependency
        raise MissingDependencyError("py3langid", "pip install py3langid") from exc
    identifier_class = langid.LanguageIdentifier
    if hasattr(identifier_class, "from_model_file"):  # py3langid >= 0.4
        return identifier_class.from_model_file(langid.MODEL_FILE, norm_probs=False)
    return identifier_class.from_pickled_model(langid.MODEL_FILE, norm_probs=False)


def _cld3_guess(text: str) -> tuple[str, float, bool]:
    """(our code or cld3's code, probability, is_reliable); `hi-Latn` becomes `hi`."""
    result = _cld3().FindLanguage(text)
    code = normalize_language(result.language) or result.language
    return code, float(result.probability), bool(result.is_reliable)


def _py3langid_probs(text: str, candidates: Iterable[str]) -> dict[str, float]:
    """py3langid probabilities renormalised over the candidates its model knows."""
    identifier = _py3langid()
    wanted = set(candidates)
    raw: dict[str, float] = {}
    for model_code, score in identifier.rank(text):
        code = normalize_language(model_code)
        if code in wanted and code not in raw:
            raw[code] = float(score)
    if not raw:
        return {}
    # py3langid's own calibration: log-scores divided by sqrt(UTF-8 length) before softmax.
    temperature = math.sqrt(max(1, len(text.encode("utf-8"))))
    top = max(raw.values())
    exps = {code: math.exp((score - top) / temperature) for code, score in raw.items()}
    total = sum(exps.values())
    return {code: value / total for code, value in exps.items()}


def _marker_hits(words: list[str], candidates: list[str]) -> dict[str, int]:
    """Distinctive-word hits per candidate; a word listed for two candidates counts for none."""
    owners: dict[str, list[str]] = {}
    for code in candidates:
        for word in NATIVE_MARKERS.get(code, ()):
            owners.setdefault(word, []).append(code)
    hits = dict.fromkeys(candidates, 0)
    for word in words:
        codes = owners.get(word)
        if codes is not None and len(codes) == 1:
            hits[codes[0]] += 1
    return hits


def _letter_hits(text: str, candidates: list[str]) -> dict[str, int]:
    """Letters only one candidate uses (Assamese ৰ ৱ vs Bengali র; Sindhi ڪ ٻ vs Urdu ے ٹ)."""
    hits = dict.fromkeys(candidates, 0)
    for code in candidates:
        letters = DISTINCTIVE_LETTERS.get(code, "")
        hits[code] = sum(text.count(letter) for letter in letters)
    return hits


def _native_language(
    text: str, words: list[str], script: str, hint: str | None
) -> tuple[str, float]:
    """(language, confidence) for text whose dominant script is a native Indic script."""
    candidates = languages_for_script(script)
    if not candidates:
        return UNDETERMINED, 0.0
    if len(candidates) == 1:
        return candidates[0], 1.0
    markers = _marker_hits(words, candidates)
    if len(words) < 2 and not any(markers.values()):
        # One word is too short to tell: the expected language, else the script's main one.
        return (hint if hint in candidates else candidates[0]), 0.5
    letters = _letter_hits(text, candidates)
    with_letters = [code for code, n in letters.items() if n > 0]
    if len(with_letters) == 1:
        return with_letters[0], 0.95
    scores = dict.fromkeys(candidates, 0.0)
    for code, prob in _py3langid_probs(text, candidates).items():
        scores[code] += prob
    cld_code, cld_prob, _ = _cld3_guess(text)
    if cld_code in scores:
        scores[cld_code] += _CLD3_WEIGHT * cld_prob
    for code, n in markers.items():
        scores[code] += _MARKER_WEIGHT * n
    if hint in scores:
        scores[hint] += _HINT_BONUS
    best = max(scores, key=lambda code: scores[code])
    total = sum(scores.values())
    return best, (scores[best] / total if total > 0 else 1.0 / len(candidates))


def _latin_hits(words: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """(function-word hits, all hits) per language for lower-cased Latin words."""
    function_hits: dict[str, int] = {}
    all_hits: dict[str, int] = {}
    for code, (function_words, content_words) in LATIN_LEXICONS.items():
        function_hits[code] = sum(word in function_words for word in words)
        all_hits[code] = function_hits[code] + sum(word in content_words for word in words)
    return function_hits, all_hits


def _embedded(matrix: str, all_hits: dict[str, int]) -> list[str]:
    identified = sum(all_hits.values())
    return sorted(
        code
        for code, n in all_hits.items()
        if code != matrix and n >= _MIN_EMBEDDED_WORDS and n >= _MIN_EMBEDDED_SHARE * identified
    )


def _latin_label(text: str, words: list[str], hint: str | None) -> LanguageLabel:
    """Label Latin-script text: English, romanized Indic, or a code-mixed mixture."""
    function_hits, all_hits = _latin_hits(words)
    cld_code, cld_prob, cld_reliable = _cld3_guess(text)
    romanized_by_cld3 = cld_code in LATIN_LEXICONS and cld_code != "en" and cld_prob >= 0.7
    if romanized_by_cld3:
        all_hits[cld_code] += 1
    if hint in all_hits and hint != "en" and all_hits[hint] > 0:
        all_hits[hint] += 1

    indic = max(
        (code for code in all_hits if code != "en"),
        key=lambda code: (function_hits[code], all_hits[code]),
    )
    indic_key = (function_hits[indic], all_hits[indic])
    english_key = (function_hits["en"], all_hits["en"])
    enough_evidence = all_hits[indic] >= 2 or (
        all_hits[indic] == 1 and all_hits["en"] == 0 and 3 * all_hits[indic] >= len(words)
    )
    identified = sum(all_hits.values())
    if indic_key > english_key and enough_evidence:
        matrix = indic
    elif (
        all_hits["en"] == 0
        and cld_code not in LATIN_LEXICONS
        and cld_reliable
        and cld_prob >= 0.9
        and len(words) >= 4
    ):
        matrix = cld_code  # clearly another Latin-script language (French, Indonesian, ...)
    else:
        matrix = "en"
    embedded = _embedded(matrix, all_hits) if matrix in all_hits else []
    if matrix not in LATIN_LEXICONS:
        confidence = cld_prob
    elif identified:
        confidence = (all_hits[matrix] + 1) / (identified + 2)
    else:
        confidence = cld_prob if cld_code == matrix else 0.5
    return LanguageLabel(
        language=matrix,
        script="Latin",
        romanized=matrix in INDIC_LANGUAGES,
        code_mixed=bool(embedded),
        matrix_language=matrix,
        embedded_languages=embedded,
        confidence=round(min(1.0, confidence), 4),
    )


def _word_script(word: str) -> str | None:
    for char in word:
        script = char_script(char)
        if script is not None:
            return script
    return None


def label_language(text: str, hint: str | None = None) -> LanguageLabel:
    """Label the matrix language, script, romanization and code-mixing of one text.

    `hint` is the language the source claims (optional); it only breaks near-ties among the
    languages the script allows and never overrides clear evidence.
    """
    if hint is not None:
        hint = check_language(hint)
    counts = script_counts(text)
    total = sum(counts.values())
    if total == 0:
        return LanguageLabel(
            language=UNDETERMINED,
            script=UNKNOWN_SCRIPT,
            matrix_language=UNDETERMINED,
            confidence=0.0,
        )
    words = tokenize(text)
    word_scripts = Counter(_word_script(w) for w in words)
    native_scripts = sorted(
        (s for s, n in counts.items() if s != "Latin" and n >= _MIN_MIXED_SCRIPT_SHARE * total),
        key=lambda s: (word_scripts[s], counts[s]),
        reverse=True,
    )  # most words first: the script carrying the grammar, not the longest name
    latin_share = counts.get("Latin", 0) / total
    if not native_scripts:
        return _latin_label(text, words, hint)

    script = native_scripts[0]
    native_words = [w for w in words if _word_script(w) == script]
    native_text = " ".join(native_words) if len(native_scripts) > 1 or latin_share > 0 else text
    language, confidence = _native_language(native_text, native_words, script, hint)
    matrix, embedded, romanized = language, [], False
    for other_script in native_scripts[1:]:  # e.g. a Bengali-script name in a Hindi question
        other_words = [w for w in words if _word_script(w) == other_script]
        other, _ = _native_language(" ".join(other_words), other_words, other_script, hint)
        if other not in (language, UNDETERMINED):
            embedded.append(other)
    if latin_share < _MIN_MIXED_SCRIPT_SHARE:
        confidence *= counts[script] / total
    else:
        latin_words = [w for w in words if _word_script(w) == "Latin"]
        # Names, acronyms, Roman numerals and formulas ("NaHCO3") are no language: the Latin
        # part counts only when it holds words from our lexicons.
        function_hits, all_hits = _latin_hits(latin_words)
        if any(all_hits.values()):
            latin = _latin_label(" ".join(latin_words), latin_words, hint)
            if function_hits.get(latin.language, 0) >= len(native_words):
                # The Latin part supplies the grammar. Native words in a script that language
                # is written in are script-mixing ("mujhe ऑपरेशन ke baad"), not another language.
                same_script = (
                    latin.language in LANGUAGES and script in LANGUAGES[latin.language].scripts
                )
                if not same_script:
                    embedded.insert(0, language)
                matrix, confidence, romanized = latin.language, latin.confidence, latin.romanized
            elif latin.language != language:
                embedded.append(latin.language)
    dominant = max(counts, key=lambda s: counts[s])
    embedded_languages = sorted(set(embedded) - {matrix})
    return LanguageLabel(
        language=matrix,
        script=dominant,
        romanized=romanized,
        code_mixed=bool(embedded_languages),
        matrix_language=matrix,
        embedded_languages=embedded_languages,
        confidence=round(min(1.0, confidence), 4),
    )


def label_languages(texts: Iterable[str], hint: str | None = None) -> list[LanguageLabel]:
    """`label_language` for many texts; repeated texts are labelled once."""
    done: dict[str, LanguageLabel] = {}
    labels = []
    for text in texts:
        if text not in done:
            done[text] = label_language(text, hint)
        labels.append(done[text])
    return labels


# --- Curated word lists ------------------------------------------------------------------------
# Written from grammars and everyday usage. The Devanagari markers of kok/mai/doi were extended
# after reading errors on the shared IndicQuest split (general grammatical forms only, e.g. the
# Maithili past tense in -लक/-लनि), so judge them on other data. Latin words are lower-case; a
# word common in English stays only in the English list ("to", "me", "is", "the", "main", "do"),
# and "hi" (Hindi "hai" in chat, or a greeting) is in none.


def _words(*groups: str) -> frozenset[str]:
    return frozenset(word for group in groups for word in group.split())


ENGLISH_FUNCTION_WORDS = _words(
    "a an the this that these those is am are was were be been being do does did done doing",
    "have has had having will would shall should can could may might must i me my mine myself",
    "we us our ours you your yours he him his she her hers it its they them their theirs what",
    "which who whom whose when where why how if then than so and or but not no nor yes as at by",
    "for from in into of off on onto out over under up down to with without within about above",
    "below after before between during through until till since while again also too very just",
    "only all any some each every both either neither other another such more most less least",
    "much many few there here because although though whether don doesn didn isn aren wasn won",
    "shouldn couldn wouldn cant dont wont im ive",
    "wat wht whats watz hw abt shd pls plz pl u ur ok okay",  # chat spellings
)
ENGLISH_CONTENT_WORDS = _words(
    "eye eyes surgery surgeries operation operated cataract doctor doctors dr hospital patient",
    "patients drop drops medicine medicines medication medications tablet tablets tab lens lenses",
    "glasses specs spectacles vision sight pain redness itching watering water food eat eating",
    "drink drinking sleep sleeping bath wash washing hair face head day days week weeks month",
    "months year years time times hour hours minute minutes morning afternoon evening night today",
    "tomorrow yesterday home work rest normal problem problems issue side effect effects risk",
    "risks safe care help need needs take taking taken use using used start stop go going come",
    "coming get getting see seeing tell know want like good bad fine well better long short first",
    "second next last left right same new test tests report reports blood sugar pressure diabetes",
    "diabetic insurance appointment consultation counselling counsellor schedule date number phone",
    "call visit follow check treatment procedure recovery infection light bright sun sunlight tv",
    "mobile read reading drive driving walk walking exercise exercises yoga flight travel cough",
    "cold fever allergy precaution precautions diet breakfast lunch dinner meal tea coffee milk",
    "fruit oily spicy alcohol smoking retina laser power cost price payment cashless discharge",
    "shield clean cleaning allowed avoid needed required possible father mother dad mom wife",
    "husband son daughter sir madam thank thanks dear question answer reply message make made",
    "say said give given put keep feel feeling look think apply applied wear wearing happen",
    "happens happened prescribed recommend recommended available necessary important usually",
    "still now soon later early late please kindly advise suggest doing able way kind type types",
    "name capital country state city india indian president minister prime government world",
    "river largest famous known written called founded history war king book author party",
)
_HINDI_LATIN_FUNCTION = _words(
    "hai hain ho hota hoti hote hoga hogi honge tha thi kya kyu kyun kyon kyo kaise kaisa kaisi",
    "kab kahan kaha kidhar kitna kitne kitni kaun kon kis kisi kisko ke ka ki ko se mein mai",
    "mujhe mujhko mera meri mere hum hume humein hamara hamari hamare aap aapko aapka aapki aapke",
    "ap apko tum tumhe tumhara yeh ye yah woh wo vo voh aur ya lekin par pe nahi nahin nhi nai na",
    "bhi sirf bahut bohot bahot baad pehle pahle phle abhi tak liye lie liya saath sath wala wali",
    "wale jab agar toh kyunki isliye iska iski iske uska uski uske unka unki unke inka apna apni",
    "apne sakta sakti sakte sake sakenge chahiye chahie chaiye raha rahi rahe gaya gayi gaye gya",
    "gyi kiya kiye kar karo karen kare karein karte karta karti karna karne karni diya diye dena",
    "dene lena lene jana jaana jane jaaye jaye aana aane aaye aaya hua hui hue hoon hu hun kuch",
    "koi sab sabhi dono ek dusra dusre dusri dosra doosra doosre",
)
_HINDI_LATIN_CONTENT = _words(
    "din raat kal aaj parso ghanta ghante hafta hafte mahina mahine saal khana khane khaana peena",
    "pani paani dawai dawa davai aankh ankh aankhon ankhon dard jalan khujli sujan theek thik",
    "accha acha achha haan ji jaldi zyada jyada kam thoda thodi roz roj rozana dekhna dekh nahana",
    "nahane dhona sona sone chalna ghar bahar andar upar neeche baal sar chashma chasma bata batao",
    "bataye bataiye kripya krupya dhanyavad shukriya dalna dalne daalna daalne lagana lagane",
    "ilaaj ilaj mareez marij taklif takleef pareshani",
)
_KANNADA_LATIN_FUNCTION = _words(
    "idu adu ide idhe illa ella beku bekaa beda enu yenu yaake yake yavaga yaavaga yavag elli",
    "yelli eshtu yeshtu estu hege hegge hyage nanu naanu nanage nange nanna nannu neevu nivu",
    "nimma nimage nimge avaru avru avanu avalu ivaru alli illi jothe mattu athava aadre aadare",
    "andre anta ashte matra nantara naantara aadmele aadamele mele munche modalu aagide agide",
    "aagutte agutte aaguthe aagtide aada aadaga aagabahuda aagbahuda maadi madi maadbeku madbeku",
    "madabeku maadabahuda madbahuda maadodu madodu hogi hogbahuda hogabahuda banni barutte",
    "barbeku barabeku kodi kodbeku kodabeku haaki haakbeku haakabeku tinnabahuda tinbahuda",
    "kudiyabahuda kudibahuda saku swalpa thumba tumba bahala",
)
_KANNADA_LATIN_CONTENT = _words(
    "dina dinagalu dinada kannu kannige kannalli kannina oota neeru novu tondare thondare thondre",
    "tondre aushadhi gante vaara naale ninne ivattu eevattu beligge belagge sanje ratri raatri",
    "mane aaspatre aspatre sari",
)
_TAMIL_LATIN_FUNCTION = _words(
    "enna ennaku enakku ennoda ungal unga ungaluku naan naa neenga neengal ninga avanga avar",
    "idhu adhu ithu athu illa illai irukku irukka iruku irukkum irukkanum venum vendum vendaam",
    "venda vendama pannanum pannalama pannalaam pannalam pannunga panna panni eppo eppodhu eppadi",
    "epdi enga engae yen yenna evlo evvalavu ethana ethanai mudiyuma mudiyum aprom apram appuram",
    "aprm piragu pinbu munnadi munbu aana aanaal mattum matum romba konjam nalla nallaa kitta",
    "kooda thaan dhaan saapidalam saapidanum saapida sapdalam sapdanum kudikkalam kudikalama",
    "podalam podanum podunga seyyalam seyyanum sollunga theriyuma teriyuma varalama varalaam",
    "pogalama pogalam aagum aaguma aachu aayiduchu",
)
_TAMIL_LATIN_CONTENT = _words(
    "naal naatkal naatkalukku kannu kann thanni thanneer saapadu marundhu marunthu vali",
    "valikkudhu valikuthu",
)
_TELUGU_LATIN_FUNCTION = _words(
    "emi emiti enti endi ela elaa elaga enduku endhuku eppudu yeppudu ekkada entha enta enni",
    "ledu ledhu leda ledha undi undhi unnayi unnadi unnaru cheyali cheyyali cheyocha cheyyocha",
    "cheyavachha cheyyavachu tinocha tinavachha tagocha tagavachha vellocha vellavachha vaadali",
    "vadali vaadocha vesukovali veyyali veyali pettali tarvata taruvata tarwata taravata mundu",
    "mundhu mundhe naaku naku nenu meeru miru mee memu manam atanu aame vallu kani kaani mariyu",
    "inka chala chaala konchem koncham bagundi avuna kaadu kadu ayyindi aindi ayindi avutundi",
    "avtundi chesaru chesina cheyandi cheppandi cheppu kosam gurinchi",
)
_TELUGU_LATIN_CONTENT = _words(
    "kanti kannu kallu rojulu roju rojuki ganta gantalu mandulu mandu neellu noppi annam",
    "bhojanam intlo",
)
# language -> (function words, content words)
LATIN_LEXICONS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "en": (ENGLISH_FUNCTION_WORDS, ENGLISH_CONTENT_WORDS),
    "hi": (_HINDI_LATIN_FUNCTION, _HINDI_LATIN_CONTENT),
    "kn": (_KANNADA_LATIN_FUNCTION, _KANNADA_LATIN_CONTENT),
    "ta": (_TAMIL_LATIN_FUNCTION, _TAMIL_LATIN_CONTENT),
    "te": (_TELUGU_LATIN_FUNCTION, _TELUGU_LATIN_CONTENT),
}

# Distinctive function words (copulas, case markers, question words) of the languages sharing
# Devanagari; py3langid knows hi/mr/ne/sa/kok (as gom) and gcld3 hi/mr/ne, neither mai nor doi.
NATIVE_MARKERS: dict[str, frozenset[str]] = {
    "hi": _words(
        "है हैं था थे थी में और क्या कौन किस किसका किसकी किसके किसने किसको कितने कितनी",
        "कितना गया गई गए किया किए",
        "कहाँ कहां कब नहीं भी वाले वाली सबसे हुआ हुई साथ लिए बारे अपने इसका उसका",
        "का की से मुझे मुझको मैं मेरा मेरी मेरे हमें आपका आपकी तुम यह वह ये वो उन्हें उनके हूँ",
        "हूं रहा रही रहे सकता सकती सकते चाहिए करना करने करें दीजिए बताइए लेकिन तो पर",
    ),
    "mr": _words(
        "आहे आहेत होत्या आणि कोणी कोणता कोणती कोणते कोणत्या कधी किती मध्ये झाला झाली",
        "झाले यांनी त्यांनी त्याचे त्याची नाही पर्यंत साठी म्हणून",
    ),
    "ne": _words(
        "छ छन् छैन थियो थिए भयो भएको गरेको गरेका गर्ने हो हुन् हुन्छ हुनुहुन्छ मा ले र कति",
        "कहिले किन कसले कसको कसरी भनेर लाई सम्म पनि यो त्यो उनको उनले",
    ),
    "sa": _words(
        "अस्ति सन्ति आसीत् आसन् अभवत् भवति भवन्ति कः किम् कस्य कस्मिन् केन कुत्र कदा कथं",
        "कथम् च इति अपि एव तमे वर्षे तस्य अस्य इत्यस्य विषये कति का ये मध्ये",
    ),
    "kok": _words(
        "आसा आसात आशिल्लो आशिल्ली आशिल्लें आशिल्ले आनी कितें कित्याक कितले कितली कितलो खंय",
        "खंयचो खंयची खंयच्या खंयचें केन्ना कोणें कोणाक जाली जालें जाल्लो जाल्ली म्हूण मेरेन",
        "पयलो पयली हांचें ताचो ताची ताचें तांचो नांव कोणे करात करपाक करपी जावपाक",
    ),
    "mai": _words(
        "अछि छथि छल छलाह छलीह छलै छैक छै भेल भेलै गेल केर कतेक कहिया केहन किएक कोना कतय",
        "ओकर एकर हुनक हुनकर आ सँ केँ मे ई कोन पहिल देलक लेल छन्हि की केलक केलनि कएलक कएल",
        "कयल लिखलनि देलनि गेलाह भेलाह थिक एकटा करू बनाउ",
    ),
    "doi": _words(
        "ऐ हा दा गी कन्नै केह् कदूं कुत्थें किन्नी कीता कीती कीते गेआ गेई होआ होई",
        "विच अते ओस उंदा उंदी उंदे पैहला पैहली मुक्ख जिक्र कोला बी कुस च थमां आस्तै कित्थे किवें इक",
        "होंदे होंदा होंदी जंदा जंदे जंदी इसदे उसदे जिसदे इसगी उसगी होया लेया",
    ),
}

# Letters written by only one of the languages sharing a script.
DISTINCTIVE_LETTERS: dict[str, str] = {
    "as": "\u09f0\u09f1",  # ৰ ৱ (Assamese ra, wa)
    "bn": "\u09b0",  # র (Bengali ra; Assamese writes ৰ)
    "sd": "ٻڄڃڇڊڌڍڏڙڦڪڳڱڻٺٽٿڀ",  # implosives, aspirates and retroflexes
    "ur": "ٹڈڑے",  # Urdu retroflexes and bari ye
}
