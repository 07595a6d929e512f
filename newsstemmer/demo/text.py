"""English text for the demo site: headlines, standfirsts, paragraphs, captions, comments, ads.

Everything is drawn from hand-written word lists and sentence templates with a caller's
``random.Random``, so the same seed gives the same text.  Templates hold ``{slot}``
fields; a slot is filled from the article's *context* (its main person, place,
company... kept for the whole article so that the text reads as one story) or, failing
that, from a pool picked at random.
"""

from __future__ import annotations

import random
import re
from typing import Callable, Mapping, Sequence

__all__ = [
    "AD_COPY",
    "ENGLISH_SECTIONS",
    "Context",
    "article_context",
    "caption",
    "comment",
    "fill",
    "headline",
    "opinion_paragraph",
    "news_paragraph",
    "person_name",
    "short_headline",
    "slugify",
    "standfirst",
    "subheading",
]

ENGLISH_SECTIONS = ("world", "business", "tech", "sport", "opinion", "photos")

FIRST_NAMES = (
    "Amara Ben Carla Dmitri Elena Farid Grace Hugo Ines Jonas Keiko Liam Maya Nadia Omar "
    "Priya Quentin Rosa Samuel Tomas Uma Viktor Wen Yara Zoe Adele Bruno Chloe Diego Esther "
    "Felix Hana Ivan Julia Kofi Lena Marco Nora Oscar Paula Rafael Sofia Theo"
).split()
LAST_NAMES = (
    "Okafor Lindqvist Moreau Tanaka Haddad Novak Brennan Castillo Osei Petrov Varga Kowalski "
    "Achterberg Mensah Duarte Fischer Greaves Halloran Ibsen Jansen Kaur Lachance Mbeki "
    "Nakamura O'Neill Pereira Quinn Rasmussen Silva Thorne Ueda Valente Whitlock Yilmaz Zhang "
    "Abbott Bianchi Carver Delacroix Eriksen"
).split()

CITIES = (
    ("Lisbon", "Portugal"), ("Nairobi", "Kenya"), ("Osaka", "Japan"), ("Valparaiso", "Chile"),
    ("Gdansk", "Poland"), ("Marseille", "France"), ("Accra", "Ghana"), ("Hobart", "Australia"),
    ("Tromso", "Norway"), ("Cork", "Ireland"), ("Porto Alegre", "Brazil"), ("Izmir", "Turkey"),
    ("Dundee", "Scotland"), ("Halifax", "Canada"), ("Busan", "South Korea"), ("Tallinn", "Estonia"),
    ("Mombasa", "Kenya"), ("Bilbao", "Spain"), ("Antwerp", "Belgium"), ("Cebu", "the Philippines"),
)
COUNTRIES = tuple(sorted({c for _, c in CITIES} | {"Canada", "Mexico", "Germany", "India", "Morocco"}))

ORGS = (
    "the transport ministry", "the regional council", "the port authority", "the national audit office",
    "the health department", "the electoral commission", "the coastguard", "the environment agency",
    "the housing ombudsman", "the interior ministry", "the chamber of commerce", "the teachers' union",
    "the farmers' federation", "the city's water board", "the competition regulator",
)
COMPANIES = (
    "Northwind Logistics", "Halvorsen Energy", "Kestrel Bank", "Bluewater Foods", "Arclight Motors",
    "Corvid Systems", "Meridian Rail", "Sable Pharmaceuticals", "Tern Airways", "Granite Insurance",
    "Larkspur Retail", "Pellucid Semiconductors", "Orrin Steel", "Quayside Shipping", "Vantage Telecom",
)
STARTUPS = (
    "Fernleaf", "Quillbyte", "Solvane", "Driftmark", "Tidewire", "Nimbalo", "Cobaltic", "Hexaroo",
    "Plinth AI", "Lumora", "Kitewing", "Brackish Labs",
)
TEAMS = (
    "Riverside Rovers", "Harbour City", "Northgate Athletic", "Saltmarsh United", "Kingsbridge Town",
    "Eastfield Wanderers", "Ashford Harriers", "Port Vale Strikers", "Millbrook Rangers", "Castleford Swifts",
)
ISSUES = (
    "water rationing", "fuel subsidies", "rising rents", "the new border checks", "pension reform",
    "the closure of rural clinics", "coastal erosion", "night-time flight bans", "school meal funding",
    "a proposed mining licence", "the fishing quota", "bus fare increases", "the delayed census",
    "air quality in the old town", "the tunnel tolls", "seasonal worker visas", "flood defences",
)
PRODUCTS = (
    "electric vans", "frozen meals", "budget flights", "solar panels", "home insurance", "data-centre chips",
    "mortgages", "mobile contracts", "steel beams", "container capacity", "generic medicines",
    "smart meters", "hiking boots", "heat pumps",
)
TECH_THINGS = (
    "a translation app", "battery-management software", "a privacy-first browser", "a chip for hearing aids",
    "a satellite messaging service", "an open-source database", "a tool that spots fake invoices",
    "drones for surveying farmland", "a platform for booking clinics", "a speech model for call centres",
)
GROUPS = (
    "tenants", "commuters", "small farmers", "nurses", "pensioners", "students", "shop owners",
    "lorry drivers", "fishing crews", "parents of young children", "night-shift workers", "carers",
)
ROLES = (
    "a spokesperson", "the deputy director", "a senior adviser", "the head of research",
    "the chief executive", "a board member", "the policy lead", "the chair",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)
STAGES = ("semi-finals", "quarter-finals", "final", "play-offs", "last 16")
POSITIONS = ("striker", "goalkeeper", "midfielder", "winger", "full-back", "captain", "centre-back")
PARTIES = (
    "the Centre Alliance", "the Green Coalition", "the Liberal Union", "the Labour Front",
    "the National Renewal party", "the Social Democrats",
)
PHOTO_SUBJECTS = (
    "Fishermen", "Schoolchildren", "Volunteers", "Street dancers", "Firefighters", "Market traders",
    "Commuters", "Protesters", "Pilgrims", "Surfers", "Farm workers", "Musicians", "Rescue teams",
    "Tourists", "Runners",
)
PHOTO_ACTIONS = (
    "haul in their nets", "gather at dawn", "clear debris from the main road", "rehearse for the parade",
    "wait for the first ferry", "set up stalls", "shelter from the rain", "light lanterns",
    "carry sandbags", "celebrate the end of the harvest", "queue for water", "paint a mural",
    "cross the flooded square", "cheer the winners", "release paper boats on the river",
)
PHOTO_THEMES = (
    "the autumn harvest", "a week of storms", "the lantern festival", "life on the river", "the city marathon",
    "the last days of summer", "the coastal clean-up", "street markets at dusk", "the night shift",
)
AGENCIES = ("Reuters", "AP", "AFP", "EPA", "Getty Images", "Courier staff")

# --- headline templates, by section -------------------------------------------------------
HEADLINES: Mapping[str, Sequence[str]] = {
    "world": (
        "{country} and {country2} agree to resume talks on {issue}",
        "Thousands march in {city} over {issue}",
        "Floods force {number} families from their homes in northern {country}",
        "{country} election: {party_cap} claims narrow lead in early count",
        "{city} mayor resigns after inquiry into {issue}",
        "Ferry strike strands travellers in {city} for a third day",
        "Court in {country} blocks plan to end {issue}",
        "{country} to reopen consulate in {city} after {years}-year closure",
        "Wildfire near {city} contained after week-long battle",
        "Parliament in {country} votes to extend {issue} for another year",
        "Ceasefire monitors arrive in border town as talks stall",
        "Rescuers search for missing hikers in the mountains above {city}",
    ),
    "business": (
        "{company} profits rise {pct}% on strong demand for {product}",
        "{company} to cut {number} jobs as sales of {product} slow",
        "Central bank holds rates at {pct}% as inflation cools",
        "Shares in {company} fall after chief executive steps down",
        "{company} agrees {money} takeover of {company2}",
        "Prices of {product} climb for the fourth month running",
        "{company} opens {money} plant in {city}",
        "Regulator fines {company} {money} over misleading adverts",
        "Small firms in {city} warn over late payments",
        "{company} shareholders reject pay deal for directors",
    ),
    "tech": (
        "{company} unveils {product2} with focus on battery life",
        "Regulators open inquiry into {company} over data sharing",
        "Start-up {startup} raises {money} to build {tech}",
        "{startup} founders say {tech} will launch in {month}",
        "Outage at {company} leaves customers offline for hours",
        "{city} to test driverless buses on two routes",
        "Researchers in {city} find flaw in popular router software",
        "{company} drops plan to scan customers' messages",
        "Open-source project behind {tech} gets new home",
        "Why {startup} is betting on {tech}",
    ),
    "sport": (
        "{team} beat {team2} {score} to reach the {stage}",
        "{person} signs new {years}-year deal with {team}",
        "{team} manager {person} leaves after {years} seasons",
        "Late goal gives {team} draw at {team2}",
        "{team} fined over crowd trouble in cup tie",
        "{person} breaks course record in {city} marathon",
        "Injury rules {team} {position} out for the season",
        "{team2} stun {team} with second-half comeback",
        "Ticket prices at {team} to rise next season",
        "{city} chosen to host the regional games in {yearsahead}",
    ),
    "opinion": (
        "Why {city} cannot afford to ignore {issue}",
        "The real cost of {issue} is paid by {group}",
        "We should stop pretending {issue} will fix itself",
        "{issue_cap} is a test this government is failing",
        "What {group} in {city} taught me about {issue}",
        "Listen to {group} before deciding on {issue}",
        "In defence of {issue}, an unfashionable cause",
        "The quiet success of {city}'s experiment with {issue}",
    ),
    "photos": (
        "In pictures: {theme} in {city}",
        "The week in photos: {theme}",
        "{theme_cap}, in pictures",
        "A day with {group_lower} in {city}",
        "Photo essay: {theme} seen from the water",
    ),
}

STANDFIRSTS: Mapping[str, Sequence[str]] = {
    "world": (
        "Officials say the next round could begin within weeks, but deep divisions remain over {issue}.",
        "The move follows months of pressure from {group} and opposition parties.",
        "Local leaders in {city} called for calm as the authorities promised a review.",
        "It is the most serious crisis the {country} government has faced since taking office.",
    ),
    "business": (
        "Analysts had expected a weaker quarter after a difficult summer for the sector.",
        "The company said the changes would save {money} a year by the end of next year.",
        "Investors welcomed the news, sending the shares up in early trading.",
        "Trade groups say the figures hide a sharp split between large and small firms.",
    ),
    "tech": (
        "The company says the change will reach most users before the end of the year.",
        "Critics warn the plan raises questions about privacy and competition.",
        "The funding round was led by investors in {city} and values the firm at {money}.",
        "Engineers say the problem has been fixed, but customers want answers.",
    ),
    "sport": (
        "{person} was the star of the night with two assists and a goal.",
        "The club said the decision was made by mutual agreement.",
        "Supporters filled the stadium despite heavy rain throughout the afternoon.",
        "It was a result few had predicted at the start of the season.",
    ),
    "opinion": (
        "The arguments for delay sound reasonable. They are not.",
        "There is a better way, and {city} has already shown it works.",
        "Every year we promise to do better. Every year we let {group} down.",
        "The numbers tell one story; the people behind them tell another.",
    ),
    "photos": (
        "Our photographers spent a week following {theme} across the region.",
        "Scenes from a week of {theme}, chosen by our picture desk.",
        "From first light to closing time, a look at {theme}.",
    ),
}

# --- body sentence templates ----------------------------------------------------------------
GENERIC = (
    "{person}, {role} at {org}, said the decision had been expected for some time.",
    "The announcement came after a meeting that lasted well into the night.",
    "Figures published on {weekday} showed the number had risen by {pct}% over the past year.",
    "Critics say the plan does little to help {group}, who have borne the brunt of the changes.",
    "A review is expected to report back before the end of {month}.",
    "{org_cap} declined to comment on the details but said it was monitoring the situation.",
    "Officials insisted that the timetable was realistic and fully funded.",
    "The proposals will now go out to public consultation for twelve weeks.",
    "Opposition politicians described the response as too little, too late.",
    "Residents in {city} said they had been warned about the problem for years.",
    "The cost of the scheme has grown to {money}, almost double the original estimate.",
    "Some {group} told the Courier they had not been consulted at all.",
    "Independent experts broadly welcomed the move but warned that the details mattered.",
    "It is the third time in as many years that the issue has reached the top of the agenda.",
    "Further meetings are planned for next week, according to people familiar with the talks.",
    "A report last year found that nearly one in five {group} had been affected.",
    "{person} said that lessons had been learned and that the public deserved clear answers.",
    "The changes take effect on the first of {month}.",
    "Local campaigners have collected more than {number} signatures calling for a rethink.",
    "The figures do not include the costs borne by {group} and small businesses.",
    "Turnout at a public meeting on {weekday} evening was higher than organisers had expected.",
    "In a statement, {org} said it would set out its plans in more detail in the coming days.",
    "Many questions remain unanswered, including who will pay for the work.",
    "There was no immediate response from {org}.",
    "Similar measures were introduced in {city2} two years ago with mixed results.",
    "Those affected can apply for support until the end of {month}.",
    "Asked whether the target would be met, {surname} said: \u201cWe are confident, but we are not complacent.\u201d",
    "The process has been criticised for its lack of transparency.",
)
QUOTES = (
    "\u201cThis is a moment for honesty about what can and cannot be done,\u201d {surname} said.",
    "\u201cWe have waited long enough,\u201d said {person}, who has lived in {city} for {years} years.",
    "\u201cNobody wanted it to come to this,\u201d one official said, speaking on condition of anonymity.",
    "\u201cThe numbers simply do not add up,\u201d said {person2}, an economist who has studied the plan.",
    "\u201cIt is a good first step, but only a first step,\u201d {surname} told reporters.",
    "\u201cPeople are tired of promises,\u201d said {person2}, a volunteer with a local charity.",
    "\u201cWe will keep pushing until something changes,\u201d {surname} added.",
    "\u201cI have never seen anything like it in thirty years,\u201d said {person2}.",
)
SECTION_SENTENCES: Mapping[str, Sequence[str]] = {
    "world": (
        "Talks between {country} and {country2} broke down in the spring over {issue}.",
        "The government in {country} has faced weeks of protests over {issue}.",
        "Diplomats said a compromise was possible if both sides agreed to a phased approach.",
        "Aid agencies warned that supplies in the worst-hit areas would last only a few days.",
        "The prime minister is expected to address parliament on {weekday}.",
        "Roads into {city} remained closed on {weekday} as crews worked to clear the damage.",
        "{party_cap} has promised to hold a referendum on the issue if it wins power.",
        "Observers from neighbouring countries described the vote as largely free and fair.",
        "Thousands of people gathered in the main square of {city}, many carrying handmade banners.",
        "The foreign ministry summoned the ambassador of {country2} to explain the remarks.",
    ),
    "business": (
        "Revenue rose to {money} in the three months to September, ahead of forecasts.",
        "{company} said demand for {product} had held up better than expected.",
        "Shares in {company} closed {pct}% higher on {weekday}.",
        "The firm employs about {number} people, most of them in {city}.",
        "Analysts at {company2} said the outlook for the sector remained uncertain.",
        "Inflation fell to {pct}% last month, the lowest level in more than two years.",
        "The deal still needs the approval of competition regulators.",
        "Margins have been squeezed by higher energy and shipping costs.",
        "Small suppliers say they are still waiting to be paid for work done in the summer.",
        "The company will publish its full-year results in {month}.",
    ),
    "tech": (
        "{startup} was founded four years ago by two former engineers at {company}.",
        "The software is already used by about {number} businesses, the company says.",
        "Security researchers reported the flaw to the vendor in {month}.",
        "The update will be rolled out gradually over the next few weeks.",
        "Privacy groups say users were never clearly told how their data would be used.",
        "{company} said the outage was caused by a faulty configuration change.",
        "The chips are made at a plant outside {city} that opened last year.",
        "Investors have poured money into {tech} despite a slowdown elsewhere in the sector.",
        "The company says it does not sell personal data to advertisers.",
        "Engineers were able to restore most services within four hours.",
    ),
    "sport": (
        "{team} took the lead after {minute} minutes through a header from the edge of the box.",
        "{team2} pressed for an equaliser but could not find a way past a well-organised defence.",
        "{person} was substituted shortly after half-time with what appeared to be a hamstring injury.",
        "The result leaves {team} {ordinal} in the table, {points} points behind the leaders.",
        "A crowd of {number} watched the match despite the cold.",
        "The manager said afterwards that his side had deserved more from the game.",
        "{team} have now won {wins} of their last {games} matches in all competitions.",
        "The {position} joined the club from {team2} three seasons ago.",
        "Tickets for the {stage} go on sale next week.",
        "Both sides had chances in a tense final quarter of an hour.",
    ),
}
OPINION_SENTENCES = (
    "I have lived in {city} for most of my life, and I have never seen {group} so worried.",
    "It is tempting to believe that {issue} is someone else's problem.",
    "The evidence, when you look at it closely, points the other way.",
    "We have been here before, and we know how the story ends if nothing changes.",
    "Nobody disputes that the money is tight.",
    "But choices about who pays are political choices, not technical ones.",
    "Ask {group} what they need and you will get a clear answer.",
    "The people making these decisions rarely have to live with their consequences.",
    "There is a better way, and it is not complicated.",
    "Other cities have tried it, and the sky did not fall in.",
    "That is not a radical idea; it used to be common sense.",
    "The argument for waiting is always the same: not now, not yet, not like this.",
    "We owe it to {group} to do better than a review and a press release.",
    "I do not pretend to have every answer.",
    "What I do know is that the current approach is failing.",
    "Consider what happened in {city2} when the council tried something different.",
    "Within two years, the complaints had fallen by half.",
    "None of this will be easy, and some of it will be unpopular.",
    "The question is whether we have the nerve to start.",
    "If we cannot manage that, we should at least stop pretending.",
    "My grandmother used to say that a promise is only as good as the next winter.",
    "She would have recognised the debate over {issue} immediately.",
    "The officials I spoke to were thoughtful, decent and entirely stuck.",
    "Every delay has a cost, and it is rarely paid by the people who chose to delay.",
)
SUBHEADINGS = (
    "What happens next", "A long dispute", "Mixed reactions", "The numbers", "Who is affected",
    "Pressure grows", "Questions remain", "Looking ahead", "Background", "A familiar pattern",
)
CAPTIONS = (
    "{subject} {action} in {city} on {weekday} morning.",
    "{subject} {action} as the sun rises over {city}.",
    "{subject} {action} near the old harbour in {city}.",
    "{subject} {action} on the outskirts of {city} after a night of heavy rain.",
    "In {city}, {subject_lower} {action} before the crowds arrive.",
    "{subject} {action}, watched by a small crowd of onlookers.",
    "A long exposure shows {subject_lower} {action} on the edge of {city}.",
    "{subject} {action} in the main square, which was closed to traffic for the day.",
)
CAPTION_EXTRAS = (
    "The tradition dates back more than a century and draws visitors from across the region.",
    "Organisers said this year's turnout was the largest since the event resumed.",
    "Local officials had warned of delays on the coast road throughout the weekend.",
    "Many of those taking part had travelled overnight to be there.",
    "Volunteers handed out hot drinks and blankets as the temperature dropped.",
    "The square was reopened to traffic shortly after midday.",
    "Forecasters expect the unsettled weather to continue into next week.",
    "For some families it is the third generation to take part.",
    "The event raised money for the lifeboat station and the town's food bank.",
    "Police said the day passed off peacefully.",
    "Repairs to the sea wall are due to be finished before the winter storms.",
    "Photographers were allowed on to the quay for the first time this year.",
)
GALLERY_INTROS = (
    "Our photographers spent the week with the people at the heart of {theme}, from {city} to {city2}.",
    "From first light until long after dark, these are some of the scenes from {theme}.",
    "The pictures below were taken over five days in and around {city}.",
    "For many in {city}, {theme} is the highlight of the year.",
    "This year the weather played its part, with rain on most days and bright spells in between.",
)
COMMENTS = (
    "Finally some proper reporting on this.",
    "I live nearby and can confirm it has been like this for months.",
    "Who is actually going to pay for all of this?",
    "Great article, thank you for covering it.",
    "The council knew about this years ago and did nothing.",
    "Not sure I agree with the conclusion, but the facts are well laid out.",
    "My family has been affected and nobody has contacted us.",
    "This is exactly what happened last time.",
    "Does anyone know where the public meeting will be held?",
    "Interesting that the article does not mention the cost overruns.",
    "Well said. More of this, please.",
    "I remember when this was first proposed. It made sense then and it makes sense now.",
    "Typical. Announce it on a Friday and hope nobody notices.",
    "Some balance would be welcome here.",
    "The photos in the gallery last week told the same story.",
    "Good to see local voices in the piece.",
)
# Ad copy: (advertiser, copy, call to action).  Several copies per advertiser.
AD_COPY = (
    ("Harbourline Mortgages", "Fixed rates from 3.9% for new customers. Check your eligibility in two minutes.", "Get a quote"),
    ("Harbourline Mortgages", "Moving home this winter? Talk to a local adviser before you sign anything.", "Book a call"),
    ("Harbourline Mortgages", "Remortgage with no arrangement fee on selected deals until the end of the month.", "See deals"),
    ("Alder & Finch Travel", "Seven nights in the Azores from \u00a3649 including flights and transfers.", "Book now"),
    ("Alder & Finch Travel", "Winter sun with free cancellation: the islands are calling.", "Explore offers"),
    ("Alder & Finch Travel", "Rail journeys across the Alps, hand-planned by our experts.", "Plan your trip"),
    ("Kettle & Co", "The only kettle that boils one cup in forty seconds. Now in five colours.", "Shop now"),
    ("Kettle & Co", "Upgrade your kitchen with our award-winning range, free delivery this week.", "Shop the range"),
    ("Greenleaf Energy", "Switch to a 100% renewable tariff and get a smart thermostat on us.", "Switch today"),
    ("Greenleaf Energy", "Heat pump installation from \u00a3500 after grants. Find out if your home qualifies.", "Check your home"),
    ("Greenleaf Energy", "Save up to \u00a3240 a year with our fixed green tariff.", "Compare tariffs"),
    ("Northstar Learning", "Learn a language in fifteen minutes a day. Your first month is free.", "Start learning"),
    ("Northstar Learning", "Evening courses in coding, design and data, taught by working professionals.", "View courses"),
    ("Velo Republic", "Electric bikes built for hills. Test ride one at our city showroom.", "Find a showroom"),
    ("Velo Republic", "Commute for less: 0% finance on all e-bikes this month.", "See bikes"),
    ("Marlowe Insurance", "Car insurance that rewards careful drivers. Save up to 30% with our app.", "Get covered"),
    ("Marlowe Insurance", "Home and contents cover from \u00a38 a month, with claims handled in days.", "Get a price"),
    ("Tidewater Wines", "A case of twelve coastal whites, hand-picked by our buyers, now \u00a389.", "Order a case"),
    ("Tidewater Wines", "Join the wine club and get three free bottles with your first order.", "Join the club"),
    ("Oakhurst Retirement", "Independent living by the sea, with care available when you need it.", "Request a brochure"),
)

WORD_RE = re.compile(r"[A-Za-z0-9']+")

Context = dict


def person_name(rng: random.Random) -> str:
    """A random full name."""
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"


def _money(rng: random.Random) -> str:
    cur = rng.choice(("\u00a3", "$", "\u20ac"))
    if rng.random() < 0.75:
        return f"{cur}{rng.randint(2, 950)}m"
    return f"{cur}{rng.randint(1, 9)}.{rng.randint(1, 9)}bn"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


_POOLS: dict[str, Callable[[random.Random], str]] = {
    "person": person_name,
    "person2": person_name,
    "role": lambda r: r.choice(ROLES),
    "org": lambda r: r.choice(ORGS),
    "city": lambda r: r.choice(CITIES)[0],
    "city2": lambda r: r.choice(CITIES)[0],
    "country": lambda r: r.choice(COUNTRIES),
    "country2": lambda r: r.choice(COUNTRIES),
    "company": lambda r: r.choice(COMPANIES),
    "company2": lambda r: r.choice(COMPANIES),
    "startup": lambda r: r.choice(STARTUPS),
    "team": lambda r: r.choice(TEAMS),
    "team2": lambda r: r.choice(TEAMS),
    "issue": lambda r: r.choice(ISSUES),
    "product": lambda r: r.choice(PRODUCTS),
    "product2": lambda r: r.choice(PRODUCTS),
    "tech": lambda r: r.choice(TECH_THINGS),
    "group": lambda r: r.choice(GROUPS),
    "weekday": lambda r: r.choice(WEEKDAYS),
    "month": lambda r: r.choice(MONTHS),
    "party": lambda r: r.choice(PARTIES),
    "stage": lambda r: r.choice(STAGES),
    "position": lambda r: r.choice(POSITIONS),
    "theme": lambda r: r.choice(PHOTO_THEMES),
    "subject": lambda r: r.choice(PHOTO_SUBJECTS),
    "action": lambda r: r.choice(PHOTO_ACTIONS),
    "pct": lambda r: f"{r.randint(1, 19)}.{r.randint(0, 9)}",
    "money": _money,
    "number": lambda r: f"{r.randint(2, 95) * 100:,}" if r.random() < 0.6 else f"{r.randint(12, 900)}",
    "years": lambda r: str(r.randint(2, 14)),
    "yearsahead": lambda r: str(r.randint(2028, 2034)),
    "score": lambda r: f"{r.randint(1, 5)}-{r.randint(0, 3)}",
    "minute": lambda r: str(r.randint(3, 88)),
    "ordinal": lambda r: _ordinal(r.randint(2, 18)),
    "points": lambda r: str(r.randint(1, 14)),
    "wins": lambda r: str(r.randint(2, 6)),
    "games": lambda r: str(r.randint(7, 10)),
}
_DERIVED: dict[str, Callable[[str], str]] = {
    "_cap": lambda s: s[:1].upper() + s[1:],
    "_lower": lambda s: s[:1].lower() + s[1:],
}
_SLOT = re.compile(r"\{(\w+)\}")


def article_context(rng: random.Random, section: str) -> Context:
    """The recurring cast of one article (same person, place, company... throughout)."""
    ctx: Context = {}
    for key in ("person", "person2", "city", "city2", "country", "country2", "company", "company2",
                "startup", "team", "team2", "issue", "product", "product2", "tech", "group", "org",
                "party", "theme", "month"):
        ctx[key] = _POOLS[key](rng)
    for a, b in (("city", "city2"), ("country", "country2"), ("company", "company2"), ("team", "team2"),
                 ("product", "product2"), ("person", "person2")):
        while ctx[b] == ctx[a]:
            ctx[b] = _POOLS[b](rng)
    ctx["surname"] = ctx["person"].split()[-1]
    ctx["section"] = section
    return ctx


def fill(template: str, rng: random.Random, ctx: Context | None = None) -> str:
    """Fill the ``{slot}`` fields of ``template`` from ``ctx`` or the pools."""
    ctx = ctx or {}

    def value(m: re.Match[str]) -> str:
        name = m.group(1)
        for suffix, fn in _DERIVED.items():
            if name.endswith(suffix):
                return fn(value_of(name[: -len(suffix)]))
        return value_of(name)

    def value_of(name: str) -> str:
        if name in ctx:
            return ctx[name]
        return _POOLS[name](rng)

    out = _SLOT.sub(value, template)
    return out[:1].upper() + out[1:]


def headline(rng: random.Random, section: str, ctx: Context) -> str:
    return fill(rng.choice(HEADLINES[section]), rng, ctx)


def short_headline(title: str) -> str:
    """A shorter variant of a headline, as sites use in lists and boxes."""
    for sep in (": ", " as ", " after ", " over ", " with ", " to ", " in "):
        i = title.find(sep, 12)
        if 12 <= i <= 48:
            return title[:i].rstrip(",") if sep != ": " else title[i + 2 :]
    words = title.split()
    if len(words) > 7:
        return " ".join(words[:6]) + "\u2026"
    return title


def standfirst(rng: random.Random, section: str, ctx: Context) -> str:
    return fill(rng.choice(STANDFIRSTS[section]), rng, ctx)


def subheading(rng: random.Random) -> str:
    return rng.choice(SUBHEADINGS)


def _sentences(rng: random.Random, pool: Sequence[str], n: int, ctx: Context, used: set[str]) -> list[str]:
    out = []
    for _ in range(n):
        for _try in range(6):
            t = rng.choice(pool)
            if t not in used:
                break
        used.add(t)
        out.append(fill(t, rng, ctx))
    return out


def news_paragraph(rng: random.Random, section: str, ctx: Context, used: set[str]) -> str:
    """One news paragraph: one to four sentences, sometimes a quote."""
    if rng.random() < 0.18:
        return _sentences(rng, QUOTES, 1, ctx, used)[0] + (
            " " + _sentences(rng, GENERIC, 1, ctx, used)[0] if rng.random() < 0.4 else ""
        )
    pool = tuple(SECTION_SENTENCES.get(section, ())) * 2 + GENERIC
    return " ".join(_sentences(rng, pool, rng.choice((1, 2, 2, 3, 3, 4)), ctx, used))


def opinion_paragraph(rng: random.Random, ctx: Context, used: set[str]) -> str:
    return " ".join(_sentences(rng, OPINION_SENTENCES, rng.choice((2, 3, 3, 4, 5)), ctx, used))


def gallery_intro(rng: random.Random, ctx: Context, used: set[str]) -> str:
    return " ".join(_sentences(rng, GALLERY_INTROS, rng.choice((1, 2, 2)), ctx, used))


def caption(rng: random.Random, ctx: Context, long: bool = False) -> str:
    """A photo caption: a scene, and with ``long`` often one or two sentences of context."""
    local = dict(ctx)
    local["subject"] = _POOLS["subject"](rng)
    local["action"] = _POOLS["action"](rng)
    local["city"] = rng.choice((ctx["city"], ctx["city"], ctx["city2"]))
    out = fill(rng.choice(CAPTIONS), rng, local)
    extra = rng.choice((0, 1, 1, 2)) if long else 0
    if extra:
        out += " " + " ".join(rng.sample(CAPTION_EXTRAS, extra))
    return out


def comment(rng: random.Random) -> str:
    n = rng.choice((1, 1, 2, 2, 3))
    return " ".join(rng.sample(COMMENTS, n))


def slugify(text: str, words: int = 8) -> str:
    parts = [w.lower().replace("'", "") for w in WORD_RE.findall(text)]
    return "-".join(p for p in parts[:words] if p) or "story"
