"""Word lists and patterns behind the rule-based query categories (see `categories`).

Written from the query kinds HEALTH-PARIKSHA names and its examples of them (§3 Methodology,
Data, lines 59-65 of the paper's text) and the way patients write to an Indian eye-hospital
bot; terms are lower-case, multi-word terms match across spaces or hyphens. Extend
them per dataset with `categories.condition_terms` / `cultural_terms` in the dataset config.
"""

from __future__ import annotations

import re


def _terms(*groups: str) -> tuple[str, ...]:
    return tuple(term.strip() for group in groups for term in group.split(",") if term.strip())


# A condition, medicine or state of the patient that changes the answer.
CONDITION_TERMS = _terms(
    "diabetes, diabetic, sugar, blood sugar, insulin, metformin, bp, blood pressure, hypertension,"
    "high bp, low bp, heart, cardiac, heart attack, stent, bypass, pacemaker, angioplasty, asthma,"
    "copd, thyroid, kidney, dialysis, liver, pregnant, pregnancy, breastfeeding, glaucoma,"
    "retinopathy, retinal detachment, macular, astigmatism, myopia, squint, keratoconus, uveitis,"
    "dry eye, allergy, allergic, aspirin, ecosprin, clopidogrel, warfarin, blood thinner,"
    "blood thinners, anticoagulant, steroid, steroids, cough, cold, fever, covid, arthritis,"
    "parkinson, dementia, epilepsy, seizure, cancer, chemotherapy, hiv, hepatitis, tuberculosis,"
    "prostate, tamsulosin, paralysis, stroke, constipation, cholesterol, obesity, old age",
    # romanized Hindi
    "sugar ki bimari, madhumeh, bp ki goli",
    # Hindi
    "शुगर, डायबिटीज, मधुमेह, बीपी, ब्लड प्रेशर, रक्तचाप, दिल की, हृदय, दमा, अस्थमा, थायराइड, गर्भवती,"
    "ग्लूकोमा, काला मोतिया, खांसी, बुखार, एलर्जी",
    # Kannada
    "ಸಕ್ಕರೆ ಕಾಯಿಲೆ, ಮಧುಮೇಹ, ಶುಗರ್, ಬಿಪಿ, ರಕ್ತದೊತ್ತಡ, ಹೃದಯ, ಅಸ್ತಮಾ, ಕೆಮ್ಮು, ಜ್ವರ",
    # Tamil
    "சர்க்கரை நோய், சர்க்கரை, நீரிழிவு, பிபி, ரத்த அழுத்தம், இரத்த அழுத்தம், இதய, ஆஸ்துமா,"
    "இருமல், காய்ச்சல், ரெட்டினோபதி",
    # Telugu
    "షుగర్, మధుమేహం, డయాబెటిస్, బీపీ, రక్తపోటు, గుండె, ఆస్తమా, దగ్గు, జ్వరం",
)

# Practices, places, food, schemes and remedies particular to India (or to a community).
CULTURAL_TERMS = _terms(
    "ayushman, ayushman bharat, pmjay, aarogyasri, yeshasvini, cghs, echs, esi card, ration card,"
    "bpl card, kajal, kaajal, surma, kohl, bindi, henna, mehndi, kumkum, vibhuti, sindoor, temple,"
    "mandir, masjid, mosque, gurudwara, church, puja, pooja, prayer, namaz, fasting, vrat, roza,"
    "ramzan, ramadan, navratri, diwali, deepavali, holi, pongal, onam, eid, festival, pilgrimage,"
    "yatra, sabarimala, tirupati, ayurveda, ayurvedic, homeopathy, homoeopathy, homeopathic,"
    "siddha, unani, naturopathy, home remedy, home remedies, desi, gharelu, pranayam, pranayama,"
    "anulom vilom, anulom, kapal bhati, kapalbhati, surya namaskar, paan, betel, gutka, gutkha,"
    "tobacco chewing, non-veg, nonveg, non veg, veg food, ghee, roti, chapati, chapathi, dal,"
    "curd, sambar, rasam, idli, dosa, biryani, pickle, achar, coconut oil, hair oil, oil bath,"
    "castor oil, rose water, gulab jal, turmeric, haldi, neem, tulsi, jaggery, gur",
    # Hindi
    "आयुष्मान, पान, गुटखा, मंदिर, मस्जिद, गुरुद्वारा, पूजा, नमाज़, नमाज, व्रत, उपवास, रोज़ा, त्योहार,"
    "दिवाली, होली, काजल, सुरमा, आयुर्वेद, होम्योपैथी, घी",
    # Kannada
    "ದೇವಸ್ಥಾನ, ದೇವಾಲಯ, ಪೂಜೆ, ಉಪವಾಸ, ಹಬ್ಬ, ಕಾಡಿಗೆ, ಆಯುರ್ವೇದ",
    # Tamil
    "விரதம், கோவில், கோயில், பூஜை, பண்டிகை, பொங்கல், தீபாவளி, ஆயுர்வேத, சித்த",
    # Telugu
    "గుడి, దేవాలయం, పూజ, ఉపవాసం, పండుగ, కాటుక, ఆయుర్వేద",
)

# Eye-care and hospital words the English word list lacks; never counted as misspelled.
DOMAIN_WORDS = frozenset(
    re.findall(
        r"\S+",
        "monofocal multifocal trifocal toric phaco phacoemulsification intraocular iol opd ipd "
        "ophthalmologist ophthalmology postoperative preoperative post pre op ot counsellor "
        "anaesthesia anesthesia anaesthetic cashless tpa mediclaim lasik yag capsulotomy "
        "etc dr mr mrs ms vs eg ie ok",
    )
)

# SMS and chat spellings counted as misspellings even when the dictionary knows the string.
CHAT_SPELLINGS = frozenset(
    re.findall(
        r"\S+",
        "wat wht watz hw abt shd shud pls plz plzz plss u ur thx tmrw b4 bcoz becoz coz cuz dnt "
        "wen hv hav cud wud gud frm lyk ppl",
    )
)

_AUX = (
    r"do|does|did|is|are|was|were|am|can|could|should|will|would|shall|may|might|must|have|has"
    r"|had"
)
_SUBJECT = r"i|we|you|he|she|they|it|the|these|those|this|that|my|your|our|his|her|their|there"
_MODAL = r"should|can|could|will|would|shall|must|may|have to|has to|need to|needs to"
NON_NATIVE_PATTERNS = tuple(
    re.compile(p)
    for p in (
        # "how many times a day i should put", "when the eye pad should be removed"
        rf"\b(?:how|what|when|where|why|which|till what time)\b"
        rf"(?:(?!\b(?:{_AUX})\b)[^.?!,]){{0,40}}?"
        rf"\b(?:i|we|you|he|she|they|it|my \w+|the \w+(?: \w+)?)\s+(?:{_MODAL})\b"
        rf"(?!\s+(?:{_SUBJECT})\b)",  # "before the surgery should these tests" is inverted
        r"(?:^|[.?!]\s*)whether\b",  # "Whether the drops should put in both eyes?"
        r"\b(?:is|am|are)\b[^.?!]*\bsince (?:morning|evening|yesterday|last|\d)",
        r"\b\d+\s*(?:days?|weeks?|months?|years?)\s+back\b",  # "surgery was 3 days back"
        r"\b(?:i am|i'm|he is|she is|my \w+ is|patient is) having\b",
        r"\b(?:take|took|taking|do|did|doing)\s+head\s?bath\b",
        r"\b(?:make|give|gives|giving) (?:problem|injection|trouble)\b",
        r"\b(?:in night time|out of station|do the needful|prepone|revert back|can able to"
        r"|could able to|no need of|discuss about|how much days|what is the procedure to)\b",
        # a declarative sentence asked as a question: "They will give injection in eye?"
        rf"(?:^|[.!?]\s+)(?:i|we|you|he|she|they|it) (?:{_MODAL}|is|are|am) [^.?!]*\?",
    )
)
