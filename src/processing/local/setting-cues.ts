import type { ConversationCategory } from '../../domain/categories.js';

/**
 * Who the other party is and what the encounter is, by the category a life log files it under.
 * `roles` are the people one meets there and how an office answers (a dentist, a claims
 * department): naming one sets the scene. `encounters` are the places and the business done
 * there (a pharmacy, a prescription, a lecture): weaker alone, since they are also talked about
 * elsewhere. Entries are comma-separated lowercase words or
 * phrases; hyphens and apostrophes read as spaces ("co-founder" is "co founder"), and a plural
 * matches its singular. The lists are general vocabularies of professions, services and
 * institutions, not phrases taken from transcripts.
 */
export interface SettingCues {
  category: ConversationCategory;
  roles: string;
  encounters: string;
}

export const SETTING_CUES: ReadonlyArray<SettingCues> = [
  {
    category: 'health',
    roles: `doctor, gp, physician, dentist, dental, hygienist, orthodontist, physio, physiotherapist,
      chiropractor, osteopath, nurse, midwife, surgeon, paediatrician, pediatrician, dermatologist,
      cardiologist, oncologist, neurologist, gynaecologist, gynecologist, urologist, radiologist,
      radiographer, sonographer, optician, optometrist, ophthalmologist, pharmacist, a&e, paramedic, physical therapist, occupational therapist, podiatrist,
      audiologist, dietitian, health visitor, walk in centre, urgent care, emergency room,
      medical centre, health centre`,
    encounters: `pharmacy, chemist, clinic, hospital, patient, prescription, referral, checkup, check up, diagnosis, scan, x ray, ultrasound,
      mri, blood test, blood pressure, symptom, dosage, medication, filling, tooth, teeth,
      physiotherapy, vaccination, injection, biopsy`,
  },
  {
    category: 'psychology',
    roles: 'therapist, psychotherapist, counsellor, counselor, psychologist, psychiatrist',
    encounters: 'therapy, counselling, counseling, cbt',
  },
  {
    category: 'legal',
    roles: `lawyer, solicitor, attorney, barrister, notary, paralegal, courtroom, crown court, family court, small claims court, judge, magistrate,
      tribunal, law firm, legal aid, public defender, prosecutor`,
    encounters: 'lawsuit, litigation, probate, power of attorney, affidavit, testimony, legal advice, custody',
  },
  {
    category: 'finance',
    roles: `accountant, bookkeeper, banker, teller, financial adviser, financial advisor,
      financial planner, mortgage adviser, mortgage advisor, mortgage broker, insurer, underwriter, loss adjuster, claims department, claims handler, tax office, credit union,
      building society`,
    encounters: `bank, insurance, policy number, account number, sort code, tax return, invoice, excess, premium, overdraft,
      loan, mortgage, pension, isa, savings account, deductible, claim number`,
  },
  {
    category: 'real',
    roles: `landlord, landlady, tenant, letting agent, lettings agent, estate agent, realtor,
      property manager, real estate agent, surveyor, housing association`,
    encounters: `tenancy, lease, viewing, rent, deposit, inventory, eviction, square metre, square feet,
      open house, asking price`,
  },
  {
    category: 'personal',
    roles: `plumber, electrician, handyman, builder, carpenter, joiner, roofer, decorator, locksmith,
      mechanic, tailor, seamstress, dry cleaner, cobbler, barber, hairdresser, hairstylist, beautician, cashier, shop assistant, customer service, help desk, helpdesk, courier, delivery driver,
      vet, veterinarian, veterinary, groomer, gas engineer, heating engineer, boiler engineer,
      receptionist`,
    encounters:
      'garage, salon, dealership, showroom, repair shop, bike shop, order number, receipt, refund, warranty, mot, service history, boiler, alterations, return label',
  },
  {
    category: 'education',
    roles: `lecturer, professor, seminar, tutorial, tutor, student, classmate, faculty, dean, teaching assistant, language school`,
    encounters: `university, college, campus, lecture, syllabus, coursework, assignment, exam, essay, thesis, dissertation, module,
      semester, office hours, reading list, homework, grade`,
  },
  {
    category: 'work',
    roles: `colleague, coworker, co worker, manager, line manager, recruiter, hiring manager, hr, team lead,
      standup, stand up meeting, sprint, retro, retrospective, all hands, one on one`,
    encounters: `job interview, interview, client, workshop, agenda, deadline, deliverable, stakeholder, backlog, ticket, roadmap, quarterly,
      performance review, promotion, payroll, onboarding`,
  },
  {
    category: 'parenting',
    roles: `parent teacher, parents evening, school counselor, school counsellor, teacher, class teacher,
      headteacher, head teacher, childminder, nanny,
      babysitter`,
    encounters: 'school, nursery, daycare, preschool, kindergarten, school run, pick up, report card, playdate',
  },
  {
    category: 'entrepreneurship',
    roles: `startup, start up, founder, co founder, cofounder, investor, venture capital, angel investor,
      accelerator, incubator`,
    encounters: `pitch deck, seed round, series a, runway, term sheet, cap table, burn rate, traction,
      product market fit, business plan`,
  },
  {
    category: 'architecture',
    roles: 'architect, architecture practice, structural engineer, planning officer, planning department',
    encounters: `floor plan, site plan, facade, elevation, planning permission, planning application,
      building regs, zoning, blueprint, cladding, massing`,
  },
  {
    category: 'spiritual',
    roles: 'priest, vicar, pastor, rabbi, imam, monk, nun, chaplain, congregation',
    encounters: 'church, mosque, synagogue, temple, sermon, prayer, worship, blessing, scripture',
  },
  {
    category: 'literature',
    roles: 'book club, reading group, writing group, novelist, poet, literary agent, publisher',
    encounters: 'manuscript, novel',
  },
  {
    category: 'romantic',
    roles: 'first date, date night, girlfriend, boyfriend',
    encounters: 'anniversary, valentine',
  },
  {
    category: 'sports',
    roles: 'coach, personal trainer, referee, umpire, teammate, squad, team sheet',
    encounters: 'training session, fixture, kick off',
  },
  {
    category: 'music',
    roles: 'band rehearsal, choir, orchestra, music teacher, guitar teacher, piano teacher',
    encounters: 'gig, setlist, rehearsal, guitar lesson, piano lesson',
  },
  {
    category: 'travel',
    roles: 'airline, travel agent, tour guide, concierge, check in desk',
    encounters: 'airport, hotel, front desk, boarding pass, flight, itinerary, passport, luggage',
  },
];
