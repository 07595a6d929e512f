"""Japanese text for the demo site's Japanese edition (``/ja/``).

Sentences and headline templates are hand-written; every character is in JIS X 0208
so that the pages can be served as Shift_JIS (``site.py`` checks this when it encodes).
Wave dashes, full-width tildes, the copyright sign and ideographic spaces are avoided on
purpose: they either do not round-trip between Shift_JIS and cp932 or are whitespace.
"""

from __future__ import annotations

import random
import re

__all__ = [
    "JA_ADS",
    "JA_CATEGORIES",
    "ja_context",
    "ja_fill",
    "ja_headline",
    "ja_paragraph",
    "ja_short_headline",
]

PLACES = ("横浜", "札幌", "福岡", "仙台", "神戸", "金沢", "那覇", "広島", "静岡", "新潟", "松山", "長崎", "函館", "富山")
SURNAMES = ("山田", "佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "中村", "小林", "加藤", "吉田", "山本", "松本", "井上")
GIVEN = ("太郎", "花子", "健一", "美咲", "大輔", "由美", "翔太", "直子", "誠", "陽子", "拓也", "恵")
ORGS = ("市教育委員会", "県警", "気象台", "市議会", "商工会議所", "県の農政部", "市の水道局", "港湾局", "保健所", "観光協会")
COMPANIES = ("北星電機", "青葉食品", "みなと運輸", "東和製鉄", "さくら銀行", "丸岡建設", "日向化学", "朝日ソフト")
TOPICS = (
    "路線バスの減便", "港の再開発", "市立病院の統合", "給食費の値上げ", "観光客の受け入れ", "空き家対策",
    "新しい図書館の建設", "防災計画の見直し", "駅前の再整備", "漁業の後継者不足", "保育所の待機児童",
)
JA_CATEGORIES = ("社会", "経済", "国際", "科学", "スポーツ", "地域")

# (template, story type): the body is drawn from the sentences of that type plus common ones.
HEADLINES = (
    ("{place}市、{topic}について住民説明会を開催", "policy"),
    ("{place}で大雨、{n}世帯に避難指示", "disaster"),
    ("{company}、{place}に新工場を建設へ", "business"),
    ("{topic}をめぐり{place}市議会が紛糾", "policy"),
    ("{place}港で大型客船の寄港が過去最多に", "event"),
    ("{company}の純利益{pct}%増、海外販売が好調", "business"),
    ("{place}の高校生が全国大会で初優勝", "sport"),
    ("{topic}、{place}市が来年度から本格実施へ", "policy"),
    ("{place}で記録的な暑さ、熱中症の搬送相次ぐ", "disaster"),
    ("{place}の商店街、空き店舗を活用した市場が人気", "event"),
    ("{org}、{topic}の調査結果を公表", "survey"),
    ("{place}沖で新種の深海魚を確認、大学が発表", "science"),
    ("{place}のサッカークラブ、来季の監督に{person}氏", "sport"),
    ("{company}、{place}の物流拠点を拡張", "business"),
)
SENTENCES: dict[str, tuple[str, ...]] = {
    "common": (
        "専門家は、早めの対策が必要だと指摘している。",
        "今後は近隣の自治体とも連携して取り組みを広げる考えだ。",
        "市の担当者は「利用者の声を聞きながら改善を続けたい」としている。",
        "この制度は全国でも珍しい取り組みとして注目されている。",
        "ただ、人手不足などの課題も残る。",
    ),
    "policy": (
        "{place}市は{day}日、{topic}に関する新たな方針を発表した。",
        "市によると、対象となるのは市内のおよそ{n}世帯だという。",
        "{org}の担当者は「住民の理解を得ながら慎重に進めたい」と話している。",
        "この問題をめぐっては、これまでにも市民から多くの意見が寄せられていた。",
        "会見で{person}市長は「できることから着実に取り組む」と述べた。",
        "{month}月には住民向けの説明会を開く予定だ。",
        "関係者によると、費用の一部は国の補助金でまかなう見通しだという。",
        "地元の商店主は「もっと早く決めてほしかった」と話した。",
        "一方で、計画に反対する声も根強い。",
        "市議会では、予算の使い方をめぐって質問が相次いだ。",
        "市は来年度の予算案に関連費用を盛り込む方針だ。",
        "住民の一人は「夜になると街が暗く、不安だ」と話す。",
    ),
    "disaster": (
        "市内では{day}日朝から強い雨が降り続き、一部の道路が通行止めとなった。",
        "気象台は、引き続き土砂災害に警戒するよう呼びかけている。",
        "けが人は確認されていないという。",
        "県は今月中にも対策本部を設置する方針だ。",
        "消防によると、{day}日だけで{n}人が救急搬送された。",
        "市は公民館など{n}か所に避難所を開設した。",
        "周辺では、通勤時間帯を中心に混雑が予想される。",
        "{org}は、不要不急の外出を控えるよう呼びかけている。",
    ),
    "business": (
        "{company}の{person}社長は「地域の雇用を守ることが最優先だ」と強調した。",
        "同社は今後三年間で約{n}人を新たに採用する計画だ。",
        "同社の売上高は前の年と比べて{pct}%増えた。",
        "円安を背景に、海外向けの販売が大きく伸びた。",
        "一方、原材料費の高騰が利益を圧迫している。",
        "完成は三年後を予定している。",
        "投資額はおよそ{n}億円にのぼる見込みだ。",
        "地元の商工会議所は、取引先の中小企業への波及に期待を寄せている。",
    ),
    "event": (
        "観光協会によると、週末には市外からも多くの人が訪れたという。",
        "会場には家族連れなど約{n}人が集まり、にぎわいを見せた。",
        "参加した{person}さんは「来年もぜひ来たい」と笑顔で話した。",
        "港の周辺には朝早くから見物客が集まった。",
        "市は今後、受け入れ態勢の強化を検討する。",
        "地元の商店街では、限定の土産物が人気を集めている。",
    ),
    "sport": (
        "決勝では終盤に逆転し、会場は大きな拍手に包まれた。",
        "監督は「選手たちが最後まであきらめなかった結果だ」と振り返った。",
        "チームは{month}月の地区大会で勢いをつけ、全国の舞台に挑んだ。",
        "主将の{person}選手は「支えてくれた家族に感謝したい」と話した。",
        "地元では{day}日、報告会が開かれる予定だ。",
        "来季に向けて、若手の育成が課題となる。",
    ),
    "survey": (
        "調査は昨年{month}月から今年にかけて行われた。",
        "結果によると、回答者の約{pct}%が不安を感じていると答えた。",
        "年代別では、若い世代ほど関心が低い傾向がみられた。",
        "{org}は、再発防止策を取りまとめて公表するとしている。",
        "調査には市内の{n}人が回答した。",
    ),
    "science": (
        "大学の研究チームは、今回の成果を来月の学会で発表する。",
        "地元の漁業関係者は、水温の上昇による影響を心配している。",
        "この魚は水深およそ{n}メートルの海底で見つかった。",
        "研究チームは、遺伝子の解析から新種と判断した。",
        "周辺の海域では、近年も珍しい生き物の発見が相次いでいる。",
    ),
}
JA_ADS = (
    ("みなと銀行", "住宅ローンの借り換え相談会を毎週土曜日に開催しています。", "詳しくはこちら"),
    ("青葉旅行", "秋の北海道三日間の旅、早期予約で一万円引き。", "ツアーを見る"),
    ("北星電機", "省エネ家電への買い替えで電気代を節約しませんか。", "製品を見る"),
    ("さくら英会話", "一日十五分から始める英会話、初月無料キャンペーン中。", "無料体験"),
    ("丸岡ホーム", "地元の木を使った家づくり、見学会を開催中です。", "予約する"),
    ("日向ワイン", "港町のワイナリーから、新酒のお知らせです。", "購入する"),
)

_SLOT = re.compile(r"\{(\w+)\}")


def ja_context(rng: random.Random) -> dict[str, str]:
    """The recurring cast of one Japanese article."""
    return {
        "place": rng.choice(PLACES),
        "org": rng.choice(ORGS),
        "person": rng.choice(SURNAMES),
        "company": rng.choice(COMPANIES),
        "topic": rng.choice(TOPICS),
        "month": str(rng.randint(1, 12)),
        "day": str(rng.randint(1, 28)),
    }


def ja_fill(template: str, rng: random.Random, ctx: dict[str, str]) -> str:
    def value(m: re.Match[str]) -> str:
        name = m.group(1)
        if name in ctx:
            return ctx[name]
        if name == "n":
            return str(rng.choice((rng.randint(12, 99), rng.randint(100, 4800))))
        if name == "pct":
            return f"{rng.randint(1, 40)}.{rng.randint(0, 9)}"
        if name == "fullname":
            return rng.choice(SURNAMES) + rng.choice(GIVEN)
        raise KeyError(name)

    return _SLOT.sub(value, template)


def ja_headline(rng: random.Random, ctx: dict[str, str]) -> str:
    """A headline; the story type it sets (``ctx["kind"]``) steers the body's sentences."""
    template, kind = rng.choice(HEADLINES)
    ctx["kind"] = kind
    return ja_fill(template, rng, ctx)


def ja_short_headline(title: str) -> str:
    """Japanese sites shorten list headlines at the comma."""
    head, sep, _ = title.partition("、")
    return head if sep and len(head) >= 6 else title


def ja_paragraph(rng: random.Random, ctx: dict[str, str], used: set[str]) -> str:
    out: list[str] = []
    pool = SENTENCES[ctx.get("kind", "policy")] * 3 + SENTENCES["common"]
    for _ in range(rng.choice((1, 2, 2, 3))):
        for _try in range(8):
            t = rng.choice(pool)
            if t not in used:
                break
        used.add(t)
        out.append(ja_fill(t, rng, ctx))
    return "".join(out)


def ja_person(rng: random.Random) -> str:
    return rng.choice(SURNAMES) + rng.choice(GIVEN)


