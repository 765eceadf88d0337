import type { ConversationCategory } from '../../src/domain/categories.js';

/**
 * The WordNet synsets that define each conversation category ("lemma.pos.sense", optionally
 * ":weight" when the concept only leans towards the category). Everything below a seed in the
 * hypernym hierarchy, and every member of a seed's topic domain, inherits the category. Seeds are
 * chosen from the category's definition, never from transcripts.
 */

export const CATEGORY_SEEDS: Record<Exclude<ConversationCategory, 'other'>, string> = {
  personal: `
    housework.n.1 errand.n.1 laundry.n.1 grocery.n.2 diary.n.1 home_appliance.n.1 furniture.n.1
    hobby.n.1 cooking.n.1 chore.n.1 haircut.n.1 wardrobe.n.1:0.5 personal_care.n.1 toiletry.n.1
    pet.n.1:0.5 gardening.n.1`,
  education: `
    education.n.1 education.n.2 educational_institution.n.1 school.n.1 student.n.1 educator.n.1
    course.n.1 examination.n.2 lesson.n.1 academic_degree.n.1 homework.n.1 curriculum.n.1 teaching.n.1
    learning.n.1:0.6 scholarship.n.2 tutor.n.1 classroom.n.1 grade.n.6 academic_program.n.1 pedagogy.n.1`,
  health: `
    medicine.n.1 medicine.n.2 medicine.n.3 medical_care.n.1 disease.n.1 illness.n.1 symptom.n.1
    injury.n.1 health_professional.n.1 medical_institution.n.1 drug.n.1 medical_procedure.n.1
    therapy.n.1 health.n.1 pain.n.1 dentistry.n.1 physician.n.1 diagnosis.n.1 medical_specialty.n.1
    nutrition.n.1:0.6 body_part.n.1:0.3 ache.n.1 physical_condition.n.1 pathology.n.1 therapist.n.1 sleep.n.1:0.4
    exercise.n.1:0.5 vaccine.n.1`,
  finance: `
    finance.n.1 finance.n.2 finance.n.3 money.n.1 money.n.2 tax.n.1 investment.n.1 investment.n.2
    bank.n.2 financial_institution.n.1 payment.n.1 payment.n.2 debt.n.1 debt.n.2 loan.n.1 budget.n.1
    insurance.n.1 assets.n.1 stock.n.1 currency.n.1 income.n.1 expense.n.1 cost.n.1 credit.n.2
    bank_account.n.1 savings.n.1 mortgage.n.1 pension.n.1 financier.n.1 accounting.n.3 bill.n.2 fee.n.1
    salary.n.1`,
  legal: `
    law.n.1 law.n.2 lawyer.n.1 court.n.1 court.n.2 legal_document.n.1 crime.n.1 contract.n.1 lawsuit.n.1
    judge.n.1 will.n.3 jurist.n.1 legal_proceeding.n.1 lease.n.1 copyright.n.1 patent.n.1
    legal_right.n.1 testament.n.2 jurisprudence.n.1 criminal.n.1 police.n.1 estate.n.2 inheritance.n.1
    heir.n.1 custody.n.1 divorce.n.1 notary.n.1`,
  philosophy: `
    philosophy.n.2 philosophy.n.1 philosopher.n.1 ethics.n.2 metaphysics.n.1 epistemology.n.1 logic.n.1
    free_will.n.1 morality.n.1 existentialism.n.1 ontology.n.2 determinism.n.1 consciousness.n.1:0.6
    virtue.n.1:0.5`,
  spiritual: `
    religion.n.1 religion.n.2 prayer.n.1 prayer.n.2 worship.n.1 meditation.n.2 deity.n.1
    spiritual_leader.n.1 clergyman.n.1 place_of_worship.n.1 religious_ceremony.n.1 sacred_text.n.1
    soul.n.1 spirituality.n.2 theology.n.1 faith.n.1 church.n.1 religious_person.n.1 meditation.n.1:0.5
    karma.n.1 afterlife.n.1`,
  science: `
    science.n.1 natural_science.n.1 scientist.n.1 laboratory.n.1 experiment.n.1 physics.n.1
    chemistry.n.1 biology.n.1 astronomy.n.1 celestial_body.n.1 chemical_element.n.1 molecule.n.1
    research.n.1:0.6 hypothesis.n.1 genetics.n.1 elementary_particle.n.1 scientific_theory.n.1 gene.n.1
    atom.n.1 fossil.n.2 telescope.n.1 microscope.n.1`,
  entrepreneurship: `
    entrepreneur.n.1 venture_capital.n.1 venture.n.1 investor.n.1 founder.n.2 enterprise.n.2
    seed_money.n.1 capital.n.1:0.6 funding.n.1 shareholder.n.1:0.6 equity.n.2:0.6 initiative.n.1:0.4`,
  parenting: `
    parent.n.1:0.5 child.n.1 child.n.2 baby.n.1 toddler.n.1 child_care.n.1 babysitter.n.1 parenthood.n.1
    nursery.n.1 diaper.n.1 playground.n.1 pediatrician.n.1 upbringing.n.1 pacifier.n.3 stroller.n.2
    toy.n.1 kindergarten.n.1 bedtime.n.1 tantrum.n.1 playpen.n.1 nanny.n.1 crib.n.1 schoolchild.n.1`,
  romantic: `
    lover.n.1 sweetheart.n.1 girlfriend.n.2 boyfriend.n.1 date.n.3 courtship.n.1 wedding.n.1 romance.n.1
    anniversary.n.1 betrothal.n.1 kiss.n.1 valentine.n.1 honeymoon.n.1 love.n.1 fiance.n.1 fiancee.n.1
    spouse.n.1:0.5 marriage.n.1:0.6 sexual_activity.n.1`,
  travel: `
    travel.n.1 journey.n.1 trip.n.1 airport.n.1 airliner.n.1 flight.n.2 hotel.n.1 passport.n.1
    baggage.n.1 tourist.n.1 tourism.n.1 vacation.n.1 visa.n.1 itinerary.n.3 airline.n.2 cruise.n.1
    sightseeing.n.1 traveler.n.1 resort.n.1 public_transport.n.1 lodging.n.1 airplane.n.1 train.n.1
    reservation.n.4 reservation.n.6 tour.n.1 voyage.n.1 camping.n.1`,
  inspiration: `
    inspiration.n.1 inspiration.n.2 motivation.n.1 courage.n.1 perseverance.n.1 ambition.n.1
    aspiration.n.1 determination.n.2 hope.n.1 achievement.n.1 success.n.1:0.6 dream.n.2
    self-improvement.n.1 encouragement.n.1 role_model.n.1 hero.n.1`,
  technology: `
    technology.n.1 computer.n.1 computer_science.n.1 software.n.1 hardware.n.3 program.n.7 internet.n.1
    web_site.n.1 database.n.1:0.5 computer_network.n.1 electronic_equipment.n.1 telephone.n.1:0.3
    programming.n.2 programmer.n.1 bug.n.2 server.n.3 code.n.3 algorithm.n.1 robot.n.1
    artificial_intelligence.n.1 electronic_device.n.1 engineering.n.2 engineer.n.1 data.n.1:0.5
    electronics.n.1 device.n.1:0.2 machine.n.1:0.2 information_technology.n.1 computer_file.n.1
    application.n.4 operating_system.n.1 battery.n.2:0.5 online.a.2`,
  business: `
    business.n.1 business.n.3 commerce.n.1 company.n.1 corporation.n.1 customer.n.1 client.n.1 sale.n.1
    marketing.n.1 merchandise.n.1 price.n.1 revenue.n.1 profit.n.1 market.n.1 negotiation.n.1
    businessperson.n.1 supplier.n.1 invoice.n.1 commodity.n.1 advertising.n.1 trade_name.n.1
    management.n.1 merger.n.1 contract.n.1:0.4 retail.n.1 marketplace.n.1 deal.n.1 partnership.n.1
    discount.n.1 quotation.n.3 proposal.n.1:0.4`,
  social: `
    party.n.2 social_gathering.n.1 friend.n.1 friendship.n.1 neighbor.n.1 celebration.n.1
    acquaintance.n.3 social_event.n.1 reunion.n.1 guest.n.1 invitation.n.1 picnic.n.1 barbecue.n.2
    gossip.n.1 companion.n.1 meal.n.1:0.4 dinner.n.1:0.4 drink.n.1:0.4 conversation.n.1:0.3 birthday.n.1
    game.n.3:0.4 bar.n.2:0.5 restaurant.n.1:0.5`,
  work: `
    job.n.1:0.4 occupation.n.1:0.4 employment.n.1 workplace.n.1 office.n.1 colleague.n.1 employee.n.1
    employer.n.1 supervisor.n.1 meeting.n.1 deadline.n.1 project.n.1 task.n.1:0.4 assignment.n.1
    report.n.1 presentation.n.4 promotion.n.2 career.n.1 interview.n.1:0.6 shift.n.3 workload.n.1
    staff.n.1 personnel.n.1:0.5 labor.n.2:0.4 team.n.1:0.5 manager.n.1 agenda.n.1 schedule.n.1:0.5
    spreadsheet.n.1 memo.n.1 workshop.n.2:0.6 conference.n.1 hire.n.1 resume.n.1 slide.n.2`,
  sports: `
    sport.n.1 sport.n.2 athlete.n.1 athletic_game.n.1 sports_equipment.n.1 tournament.n.1 coach.n.1
    playing_field.n.2 stadium.n.1 gymnasium.n.2 race.n.1:0.5 score.n.3 league.n.1 referee.n.1
    olympic_games.n.1 fitness.n.2 exercise.n.1:0.6 workout.n.1 match.n.2 fan.n.3 team.n.1:0.5
    championship.n.1 contestant.n.1:0.5 marathon.n.2`,
  politics: `
    politics.n.1 politics.n.2 political_science.n.1 government.n.1 election.n.1 politician.n.1
    political_party.n.1 legislature.n.1 vote.n.1 voting.n.1 campaign.n.1 policy.n.2 legislation.n.1
    diplomacy.n.1 political_system.n.1 protest.n.2 council.n.1 citizen.n.1:0.5 head_of_state.n.1
    senator.n.1 referendum.n.1 ballot.n.1 legislator.n.1`,
  literature: `
    literature.n.1 literary_composition.n.1 book.n.1 book.n.2 novel.n.1 poetry.n.1 poem.n.1 writer.n.1
    fiction.n.1 reading.n.1 library.n.1 publisher.n.1 chapter.n.1 fictional_character.n.1
    literary_criticism.n.1 genre.n.1:0.5 storyteller.n.1 story.n.1 plot.n.3 memoir.n.1
    publication.n.1:0.5`,
  history: `
    history.n.1 history.n.2 history.n.3 historian.n.1 archeology.n.1 antiquity.n.1 war.n.1 empire.n.1
    dynasty.n.1 historic_period.n.1 museum.n.1 memorial.n.3 ruin.n.2 revolution.n.2 civilization.n.1
    middle_ages.n.1 century.n.1:0.5 monarch.n.1 battle.n.1 archive.n.1 heritage.n.1`,
  architecture: `
    architecture.n.1 architecture.n.2 architecture.n.3 architect.n.1 building.n.1:0.3
    architectural_style.n.1 facade.n.1 blueprint.n.1 floor_plan.n.1 renovation.n.1 skyscraper.n.1
    building_material.n.1 construction.n.1 building_complex.n.1 roof.n.1 wall.n.1:0.5 column.n.6
    arch.n.1 urban_planning.n.1`,
  music: `
    music.n.1 music.n.3 musician.n.1 musician.n.2 musical_instrument.n.1 song.n.1
    musical_composition.n.1 musical_organization.n.1 concert.n.1 album.n.1 singer.n.1 music_genre.n.1
    rehearsal.n.1:0.6 melody.n.1 rhythm.n.1 chord.n.2 musical_notation.n.1 record.n.2 gig.n.6
    orchestra.n.1 choir.n.1 composer.n.1`,
  weather: `
    weather.n.1 atmospheric_phenomenon.n.1 storm.n.1 precipitation.n.3 wind.n.1 temperature.n.1
    forecast.n.1 meteorology.n.1 cloud.n.2 sunshine.n.1 rain.n.1 snow.n.1 snow.n.2 fog.n.1 humidity.n.1
    heat_wave.n.1 weather_forecast.n.1 cold_weather.n.1`,
  news: `
    news.n.1 news.n.2 news.n.3 journalism.n.1 journalist.n.1 broadcast.n.1 newspaper.n.1 reporter.n.1
    headline.n.1 press.n.2 article.n.1 announcer.n.1 newscaster.n.1 bulletin.n.1 press_conference.n.1
    correspondent.n.2 anchor.n.3`,
  entertainment: `
    entertainment.n.1 movie.n.1 film.n.2 television.n.1 show.n.1 actor.n.1 theater.n.1 video_game.n.1
    comedy.n.1 performer.n.1 celebrity.n.1 show_business.n.1 amusement_park.n.1 circus.n.1 broadcast.n.2
    series.n.2 episode.n.3 cinema.n.1 festival.n.1 play.n.1 game.n.1:0.4 fun.n.1:0.5 comedian.n.1
    drama.n.1`,
  psychology: `
    psychology.n.1 psychologist.n.1 psychotherapy.n.1 psychotherapist.n.1 emotion.n.1:0.6
    mental_disorder.n.1 anxiety.n.1 anxiety.n.2 depression.n.1 stress.n.2 stress.n.4 personality.n.1
    mental_health.n.1 self-esteem.n.1 therapist.n.1:0.5 psychiatrist.n.1 trauma.n.2 mindfulness.n.1
    habit.n.1:0.5 motivation.n.1:0.4`,
  real: `
    real_estate.n.1 property.n.1:0.5 property.n.3:0.5 housing.n.1 apartment.n.1 real_estate_agent.n.1
    rent.n.1 landlord.n.1 tenant.n.1 lease.n.1:0.6 dwelling.n.1 lot.n.2 condominium.n.1 condominium.n.2
    homeowner.n.1 mortgage.n.1:0.6 house.n.1:0.6 neighborhood.n.4:0.5 tenancy.n.1 eviction.n.1`,
  design: `
    design.n.1 design.n.2 design.n.4 designer.n.1 designer.n.2 typography.n.1 logo.n.1 color.n.1
    layout.n.1 interior_decoration.n.1 font.n.1 prototype.n.1 user_interface.n.1 sketch.n.1
    graphic_art.n.1 palette.n.1 illustration.n.1 visual_communication.n.1`,
  family: `
    family.n.1 family.n.2 family.n.4 relative.n.1 kin.n.1 sibling.n.1 brother.n.1 sister.n.1
    grandparent.n.1 grandchild.n.1 cousin.n.1 aunt.n.1 uncle.n.1 spouse.n.1:0.5 in-law.n.1 genealogy.n.1
    parent.n.1 household.n.1 family_relationship.n.1 mother.n.1 father.n.1 son.n.1 daughter.n.1
    grandma.n.1 grandpa.n.1`,
  economics: `
    economics.n.1 economy.n.1 economist.n.1 inflation.n.1 unemployment.n.1 trade.n.1
    gross_domestic_product.n.1 recession.n.1 interest_rate.n.1 supply.n.1:0.3 demand.n.2
    economic_growth.n.1 central_bank.n.1 tariff.n.1 market_economy.n.1 fiscal_policy.n.1
    labor_market.n.1`,
  environment: `
    environment.n.2:0.5 ecology.n.1 ecology.n.2 pollution.n.1 conservation.n.1 global_warming.n.1
    recycling.n.1 wildlife.n.1 ecosystem.n.1 environmentalist.n.1 habitat.n.1 deforestation.n.1
    emission.n.1 climate.n.1 solar_energy.n.1 waste.n.1 greenhouse_gas.n.1 species.n.1:0.5
    forest.n.1:0.5 ocean.n.1:0.4 climate_change.n.1 compost.n.1`,
};
