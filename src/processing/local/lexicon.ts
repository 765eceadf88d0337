import type { ConversationCategory } from '../../domain/categories.js';

/**
 * Topic words per category, matched against lemmas (single words) and the lowercased text
 * (phrases). Strong words name the topic on their own; weak words only lean towards it.
 */
export interface CategoryLexicon {
  strong: string;
  weak: string;
  phrases?: string[];
}

export const CATEGORY_LEXICON: Record<Exclude<ConversationCategory, 'other'>, CategoryLexicon> = {
  personal: {
    strong: 'diary journal moving chore laundry errand apartment groceries grocery',
    weak: 'birthday plants mail home house life myself feel plan weekend routine decade goal kitchen sink plumber repair couch van milk bread washing',
    phrases: ['to-do list', 'my life', 'new year', 'checklist', 'washing machine'],
  },
  education: {
    strong:
      'exam exams school scholarship graduation enrollment university college student teacher professor lecture course homework semester tutor curriculum flashcard syllabus degree thesis classmate',
    weak: 'study learn class chapter grade test quiz library textbook lesson assignment register application',
    phrases: ['study group', 'lecture hall', 'final exam', 'practice exam'],
  },
  health: {
    strong:
      'doctor dentist  physio physiotherapy symptom diagnosis prescription antibiotic medication pill clinic hospital blood pressure allergy allergic injury surgery vaccine pediatrician nurse headache migraine cholesterol diabetes asthma fracture cardiologist dermatologist mri x-ray',
    weak: 'health pain knee back sick fever salt diet sleep exercise appointment recover checkup follow-up medicine recheck',
    phrases: ['blood pressure', 'follow-up', 'physical therapy', 'foam roller'],
  },
  finance: {
    strong:
      'tax taxes irs w-2 1099 mortgage paycheck stock stocks portfolio dividend crypto bitcoin budget savings invest investment index fund bond retirement credit debt loan pension bank salary insurance bill',
    weak: 'money pay payment account rate interest euro dollar percent fee cost expense spend save receipt balance',
    phrases: ['credit card', 'emergency fund', 'index funds', 'interest rate', 'savings account', 'car insurance'],
  },
  legal: {
    strong:
      'lawyer attorney court lawsuit custody divorce notary copyright trademark patent contract clause liability lease landlord deposit tenant legal sue judge',
    weak: 'law right sign agreement dispute letter demand file evidence claim',
    phrases: ['small claims', 'demand letter', 'security deposit', 'wear and tear'],
  },
  philosophy: {
    strong:
      'philosophy philosopher determinism compatibilism kant nietzsche plato aristotle socrates stoic stoicism ethics morality metaphysics consciousness existential',
    weak: 'choice freedom reason meaning truth mind determine argue',
    phrases: ['free will', 'meaning of life'],
  },
  spiritual: {
    strong:
      'prayer pray church meditation meditate god faith sermon quaker monastery retreat spiritual soul temple mosque synagogue buddhist worship bible scripture spirituality rabbi priest pastor karma',
    weak: 'forgiveness silence grace belief bless sunday reflection',
    phrases: ['silent retreat'],
  },
  science: {
    strong:
      'telescope exoplanet spectroscopy physics chemistry biology molecule atom planet galaxy experiment scientist hypothesis nasa dna evolution quantum particle neuron',
    weak: 'atmosphere star oxygen methane carbon data theory study lab wavelength research',
    phrases: ['black hole', 'gas giant', 'red dwarf'],
  },
  entrepreneurship: {
    strong:
      'startup startups founder cofounder incubator equity co-founder investor seed vc runway valuation fundraising pitch mvp bootstrap accelerator',
    weak: 'idea business margin traction subscription burn raise venture launch',
    phrases: ['side business', 'pitch deck', 'burn rate', 'seed round', 'business idea', 'financial model'],
  },
  parenting: {
    strong:
      'daycare toddler baby pediatrician parenting kid kids child children preschool bedtime nap regression diaper tantrum stroller babysitter playdate',
    weak: 'son daughter school teacher sleep reading play parent homework',
    phrases: ['parent-teacher', 'sleep regression', 'bedtime routine'],
  },
  romantic: {
    strong:
      'anniversary girlfriend boyfriend romantic romance valentine engagement honeymoon wedding crush relationship',
    weak: 'dinner partner wife husband kiss gift watch table love date',
    phrases: ['first date', 'love letter', 'miss you', 'love you', 'date night', 'proper date'],
  },
  travel: {
    strong:
      'flight airport passport hotel trip travel vacation holiday airbnb itinerary luggage visa airline boarding rebooking layover jet lag sightseeing cruise backpack',
    weak: 'fly book city beach tour train abroad ticket reservation',
    phrases: ['day trip', 'road trip'],
  },
  inspiration: {
    strong: 'inspire inspiring inspiration motivation motivated courage ted tedx keynote resilience perseverance',
    weak: 'fear never speaker story achieve perfect believe dream',
    phrases: ['never too late'],
  },
  technology: {
    strong:
      'api server software hardware code bug deploy kubernetes pod leak database websocket heap staging backend frontend laptop container linux router cloud battery wifi smartphone tablet gpu cpu algorithm programming developer github encryption',
    weak: 'computer install uninstall restart boot crash launcher disk drive backup mode build flag limit memory update phone network app',
    phrases: ['home server', 'safe mode', 'hard drive', 'pull request'],
  },
  business: {
    strong:
      'client customer vendor sales revenue pricing discount proposal contract deal churn competitor invoice renewal account procurement b2b partnership supplier wholesale quote',
    weak: 'market price quarter growth margin usage term offer negotiate leverage support package',
    phrases: ['annual contract', 'starter plan'],
  },
  social: {
    strong:
      'party friend friends meetup hangout congratulations reunion barbecue bbq drinks brunch gathering neighbor neighbour',
    weak: 'birthday dinner invite catch bring snack chips salsa visit together fun board game',
    phrases: [
      'board game',
      'catch up',
      'caught up',
      'game night',
      "it's been forever",
      'long time no see',
      'how have you been',
      'get together',
      'hang out',
    ],
  },
  work: {
    strong:
      'standup manager boss colleague coworker deadline project promotion office team sprint migration backfill facilities stakeholder steering performance okr hr hiring interview onboard payroll workload',
    weak: 'work job report deck slide timeline schedule email task presentation committee expense printer meeting review',
    phrases: ['pull request', 'self-assessment', 'expense report', 'quarterly report', 'project timeline', 'on-call'],
  },
  sports: {
    strong:
      'game team basketball football soccer tennis marathon backhand forehand footwork racket volleyball athlete training coach playoff conference defense score match league race gym workout cycling swim swimming olympics tournament referee golf hockey baseball',
    weak: 'serve quarter block bench injury win lose pace kilometer shoe season run',
    phrases: ['half marathon', 'fourth quarter'],
  },
  politics: {
    strong:
      'election vote voting ballot measure council senator governor congress policy campaign candidate political politics democrat republican parliament president mayor legislation protest referendum',
    weak: 'city law rent housing affordable register',
    phrases: ['city council', 'rent stabilization'],
  },
  literature: {
    strong: 'book books novel novelist author chapter poetry poem poet literature memoir fiction',
    weak: 'read story write ending plot club character reading',
    phrases: ['book club'],
  },
  history: {
    strong:
      'history historical historian empire ancient century roman greek museum war medieval archaeology aqueduct dynasty revolution colonial',
    weak: 'guide build abandon king old ruin bath',
    phrases: ['third century'],
  },
  architecture: {
    strong:
      'architecture architect brutalist building concrete facade tower structure bauhaus skyscraper cathedral gothic renovation blueprint',
    weak: 'design walkway estate conservatory texture surface',
    phrases: ['floor plans', 'le corbusier'],
  },
  music: {
    strong: 'music song band concert album bass guitar drum piano rehearsal gig tour singer amp',
    weak: 'play bridge bar ticket sound',
    phrases: ['bass line'],
  },
  weather: {
    strong:
      'weather forecast storm snow rain wind gust avalanche temperature sunny cloudy hurricane tornado heatwave drought flood thunderstorm humidity',
    weak: 'cold hot clear hike overnight humid',
    phrases: ['mile an hour'],
  },
  news: {
    strong: 'news headline article strike reporter journalist press breaking broadcast newspaper',
    weak: 'story report announce governor shortage',
    phrases: ['press conference', 'top story'],
  },
  entertainment: {
    strong:
      'movie film show series episode season finale netflix imax cinema actor actress blockbuster streaming sitcom documentary theater theatre comedy trailer',
    weak: 'watch scene sequence pacing genre horror fiction',
    phrases: ['science fiction'],
  },
  psychology: {
    strong:
      'therapy therapist anxiety depression cognitive distortion catastrophizing psychology mental psychologist burnout trauma self-esteem mindset behavior behaviour',
    weak: 'feeling thought emotion stress reframe session evidence record',
    phrases: ['thought record', 'mental health'],
  },
  real: {
    strong: 'realtor seller buyer listing inspection pre-approval escrow property condo downpayment appraisal',
    weak: 'house roof offer market home mortgage flat viewing agent',
    phrases: ['real estate', 'on the market', 'asking price', 'estate agent', 'service charge', 'house hunting'],
  },
  design: {
    strong:
      'design designer onboarding mockup wireframe typography contrast accessibility layout ui ux prototype figma logo branding palette',
    weak: 'screen button color font user toggle step clutter',
    phrases: ['progressive disclosure', 'empty state'],
  },
  family: {
    strong:
      'mom dad mother father sister brother grandpa grandma grandmother grandfather cousin aunt uncle family parents niece nephew grandparents relatives',
    weak: 'call dinner home birthday',
    phrases: ['assisted living'],
  },
  economics: {
    strong:
      'inflation economy economics recession unemployment gdp wage wages monetary fiscal tariff deficit supply demand',
    weak: 'rate price growth market import cut pound dollar',
    phrases: ['interest rates', 'central bank', 'phillips curve', 'bank of england'],
  },
  environment: {
    strong:
      'climate environment environmental plastic recycle recycling pollution cleanup microplastic emission emissions sustainability polystyrene compost solar carbon wildlife conservation deforestation',
    weak: 'beach ocean tree nature waste trash drain',
    phrases: ['climate change', 'beach cleanup'],
  },
};

/** One fitting emoji per category. */
export const CATEGORY_EMOJI: Record<ConversationCategory, string> = {
  personal: '🏠',
  education: '📚',
  health: '🩺',
  finance: '💰',
  legal: '⚖️',
  philosophy: '🤔',
  spiritual: '🕊️',
  science: '🔬',
  entrepreneurship: '🚀',
  parenting: '🧸',
  romantic: '❤️',
  travel: '✈️',
  inspiration: '✨',
  technology: '💻',
  business: '📈',
  social: '🎉',
  work: '💼',
  sports: '🏅',
  politics: '🗳️',
  literature: '📖',
  history: '🏛️',
  architecture: '🏗️',
  music: '🎵',
  weather: '🌦️',
  news: '📰',
  entertainment: '🎬',
  psychology: '🧠',
  real: '🏡',
  design: '🎨',
  family: '👪',
  economics: '📊',
  environment: '🌱',
  other: '💬',
};
